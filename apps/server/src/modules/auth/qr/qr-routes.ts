import type { FastifyInstance, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { AuthPaths, authText, DEFAULT_TENANT_ID, type QrScanView, type QrSession, type QrView } from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { requireAuth } from '../../../platform/auth/request-auth';
import { ok } from '../../../platform/http/envelope';
import { badRequest } from '../../../platform/http/errors';
import { paramOf } from '../../../platform/http/request-params';
import { findTenant, isTenantExpired } from '../../user/user-repository';
import { limitAttempts } from './attempt-limit';
import { QrError, QrSessions } from './qr-session';
import { requestOrigin } from './request-origin';

const TENANT_ID = /^[0-9A-Za-z]{1,12}$/;
/**
 * QR codes one client address may ask for per minute. Generous: an open sign-in page asks every two
 * minutes, and behind a proxy (without trustProxy) every user shares the proxy's address.
 */
const CREATE_PER_MINUTE = 120;

/** An SVG data URL: a few KB, sharp at any size, and no image library in the browser. */
export async function qrImage(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** A tenant that may sign in now; anything else gets the sign-in page's tenant messages. */
export async function liveTenant(ctx: AppContext, raw: unknown): Promise<string> {
  const tenantId = typeof raw === 'string' && raw.trim() ? raw.trim() : DEFAULT_TENANT_ID;
  if (!TENANT_ID.test(tenantId)) throw badRequest(authText('noTenant'));
  const found = await findTenant(ctx.db, tenantId);
  if (!found || found.status !== 1) throw badRequest(authText('noTenant'));
  if (isTenantExpired(found, ctx.clock.now())) throw badRequest(authText('tenantExpired'));
  return tenantId;
}

const agentOf = (request: FastifyRequest) =>
  typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : '';

/** QR refusals are ordinary 400s with the message the page shows. */
async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof QrError) throw badRequest(e.text);
    throw e;
  }
}

/**
 * QR sign-in (docs/sign-in.md): the sign-in page asks for a code and polls it; a signed-in user
 * of the same tenant opens the code's link, which scans it, and confirms or cancels; the page
 * then signs in with `grant_type=qr`.
 */
export function registerQrRoutes(app: FastifyInstance, ctx: AppContext): void {
  const sessions = new QrSessions(ctx);

  app.get(`/api${AuthPaths.qrCode}`, { config: { public: true } }, async (request) => {
    await limitAttempts(ctx, 'qr-create', request.ip, CREATE_PER_MINUTE, 60_000);
    const tenantId = await liveTenant(ctx, paramOf(request, 'tenantId'));
    const origin = requestOrigin(request, paramOf(request, 'origin'));
    const created = await sessions.create(tenantId, request.ip, agentOf(request));
    const link = `${origin}/qr-confirm?code=${created.code}`;
    return ok<QrSession>({ ...created, tenantId, link, image: await qrImage(link) });
  });

  app.get(`/api${AuthPaths.qrStatus}`, { config: { public: true } }, async (request) =>
    ok<QrView>(await refusing(() => sessions.status(paramOf(request, 'code'), paramOf(request, 'state')))),
  );

  app.post(`/api${AuthPaths.qrScan}`, { config: { anyUser: true } }, async (request) =>
    ok<QrScanView>(await refusing(() => sessions.scan(paramOf(request, 'code'), requireAuth(request)))),
  );

  app.post(`/api${AuthPaths.qrConfirm}`, { config: { anyUser: true } }, async (request) =>
    ok<QrView>(await refusing(() => sessions.confirm(paramOf(request, 'code'), requireAuth(request)))),
  );

  app.post(`/api${AuthPaths.qrCancel}`, { config: { anyUser: true } }, async (request) =>
    ok<QrView>(await refusing(() => sessions.cancel(paramOf(request, 'code'), requireAuth(request)))),
  );
}

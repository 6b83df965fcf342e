import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { AppContext } from '../../app-context';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { badRequest } from '../../platform/http/errors';
import { paramOf } from '../../platform/http/request-params';
import { requestOrigin } from '../auth/qr/request-origin';

const MAX_LINK = 500;
const DEFAULT_SIZE = 300;

export const VisitMessages = {
  badLink: {
    zh: '访问链接应以 http:// 或 https:// 开头,或为本站路径',
    en: 'The visit link must start with http:// or https://, or be a path on this site',
  },
  linkTooLong: { zh: `访问链接最长 ${MAX_LINK} 个字符`, en: `The visit link has at most ${MAX_LINK} characters` },
  badSize: {
    zh: '二维码尺寸应为 128 到 1024 之间的整数',
    en: 'The QR code size must be an integer from 128 to 1024',
  },
} as const;

/** The visit link: a full http(s) URL, a path on this site, or by default the tenant's visit page. */
function visitLink(raw: unknown, origin: string, tenantId: string): string {
  if (raw === undefined || raw === null || raw === '')
    return `${origin}/visit?tenantId=${encodeURIComponent(tenantId)}`;
  if (typeof raw !== 'string') throw badRequest(VisitMessages.badLink);
  const link = raw.trim();
  if (link.length > MAX_LINK) throw badRequest(VisitMessages.linkTooLong);
  // `//host` would be another site under a path's disguise.
  if (link.startsWith('/') && !link.startsWith('//')) return `${origin}${link}`;
  try {
    const url = new URL(link);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // falls through to the refusal
  }
  throw badRequest(VisitMessages.badLink);
}

function sizeOf(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_SIZE;
  const size = Number(raw);
  if (!Number.isInteger(size) || size < 128 || size > 1024) throw badRequest(VisitMessages.badSize);
  return size;
}

/**
 * `GET /api/blade-holiday/visit/qrcode`: a QR image for a visit link (`link`, default the signed-in
 * tenant's visit page; `size` in pixels), as `{link, image}` with a PNG data URL that pages can
 * show and print. Any signed-in user may ask: it reveals nothing but the link it is given.
 */
export function registerVisitRoutes(app: FastifyInstance, _ctx: AppContext): void {
  app.get('/api/blade-holiday/visit/qrcode', { config: { anyUser: true } }, async (request) => {
    const auth = requireAuth(request);
    const link = visitLink(paramOf(request, 'link'), requestOrigin(request, paramOf(request, 'origin')), auth.tenantId);
    const image = await QRCode.toDataURL(link, {
      type: 'image/png',
      width: sizeOf(paramOf(request, 'size')),
      margin: 2,
      errorCorrectionLevel: 'M',
    });
    return ok({ link, image });
  });
}

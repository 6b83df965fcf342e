import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  formatDateTime,
  type BilingualText,
  type QrScanView,
  type QrSession,
  type QrStatus,
  type QrView,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import type { AuthContext } from '../../../platform/auth/request-auth';

/** How long a QR code may be scanned and confirmed. */
export const QR_TTL_MS = 120_000;
/** After confirmation the sign-in page has this long to trade the session for tokens. */
export const QR_CONFIRMED_MS = 60_000;
/** How long an ended session is remembered, so a late poll hears 已过期 rather than 无效. */
const QR_KEEP_MS = 10 * 60_000;
const CODE = /^[A-Za-z0-9_-]{16,64}$/;

/** The states of a QR code the sign-in page and the confirming device show, in both languages. */
export const QrMessages = {
  invalid: { zh: '二维码无效', en: 'The QR code is invalid' },
  expired: { zh: '二维码已过期', en: 'The QR code has expired' },
  notConfirmed: { zh: '二维码尚未确认', en: 'The QR code has not been confirmed yet' },
  cancelled: { zh: '二维码已取消', en: 'The QR code was cancelled' },
  confirmed: { zh: '二维码已确认', en: 'The QR code has already been confirmed' },
  otherTenant: {
    zh: '该二维码属于其他租户,无法确认',
    en: 'The QR code belongs to another tenant and cannot be confirmed here',
  },
  scannedByOther: { zh: '二维码已被其他用户扫描', en: 'Another user has already scanned the QR code' },
} as const satisfies Record<string, BilingualText>;

/** What the store keeps for one QR code. The state itself is never stored, only its hash. */
interface QrRecord {
  tenantId: string;
  stateHash: string;
  status: 'waiting' | 'scanned' | 'confirmed' | 'cancelled';
  createdAt: number;
  expiresAt: number;
  /** The signed-in user who scanned, then confirmed. */
  userId?: string;
  /** Where the sign-in was requested from, shown to the confirming user. */
  ip: string;
  agent: string;
}

/** A refusal with the message the caller shows. */
export class QrError extends Error {
  constructor(readonly text: BilingualText) {
    super(text.zh);
  }
}

const key = (code: string) => `qr-login:${code}`;
const hashOf = (state: string) => createHash('sha256').update(state).digest();

function stateMatches(record: QrRecord, state: string): boolean {
  const expected = Buffer.from(record.stateHash, 'hex');
  const given = hashOf(state);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** What the store makes of a new code; the route adds the tenant, the link and its image. */
export type QrCreated = Pick<QrSession, 'code' | 'state' | 'expiresIn'>;

/**
 * QR sign-in sessions in the shared store. The code travels in the QR image (anyone who sees it
 * may open the confirm page); the state stays with the page that asked for the code and is
 * needed to poll and to sign in, so a photographed QR code cannot be used to take the session.
 */
export class QrSessions {
  constructor(private readonly ctx: AppContext) {}

  private now(): number {
    return this.ctx.clock.now();
  }

  async create(tenantId: string, ip: string, agent: string): Promise<QrCreated> {
    const code = randomBytes(18).toString('base64url');
    const state = randomBytes(32).toString('base64url');
    const now = this.now();
    const record: QrRecord = {
      tenantId,
      stateHash: hashOf(state).toString('hex'),
      status: 'waiting',
      createdAt: now,
      expiresAt: now + QR_TTL_MS,
      ip,
      agent: agent.slice(0, 300),
    };
    await this.ctx.store.set(key(code), JSON.stringify(record), QR_KEEP_MS);
    return { code, state, expiresIn: QR_TTL_MS / 1000 };
  }

  private async read(code: unknown): Promise<QrRecord> {
    if (typeof code !== 'string' || !CODE.test(code)) throw new QrError(QrMessages.invalid);
    const raw = await this.ctx.store.get(key(code));
    if (!raw) throw new QrError(QrMessages.invalid);
    return JSON.parse(raw) as QrRecord;
  }

  private async write(code: string, record: QrRecord): Promise<void> {
    const keep = record.createdAt + QR_KEEP_MS - this.now();
    if (keep > 0) await this.ctx.store.set(key(code), JSON.stringify(record), keep);
  }

  private statusOf(record: QrRecord): QrStatus {
    return record.status !== 'cancelled' && this.now() >= record.expiresAt ? 'expired' : record.status;
  }

  private view(record: QrRecord): QrView {
    const status = this.statusOf(record);
    const left = status === 'expired' || status === 'cancelled' ? 0 : record.expiresAt - this.now();
    return { status, expiresIn: Math.max(0, Math.ceil(left / 1000)) };
  }

  /** The sign-in page's poll: needs the state it was given with the code. */
  async status(code: unknown, state: unknown): Promise<QrView> {
    const record = await this.read(code);
    if (typeof state !== 'string' || !stateMatches(record, state)) throw new QrError(QrMessages.invalid);
    return this.view(record);
  }

  /** A signed-in user of the same tenant opened the confirm page. */
  async scan(code: unknown, auth: AuthContext): Promise<QrScanView> {
    const record = await this.read(code);
    this.assertOpen(record, auth);
    if (record.status === 'waiting') {
      record.status = 'scanned';
      record.userId = auth.userId;
      await this.write(code as string, record);
    }
    return {
      ...this.view(record),
      tenantId: record.tenantId,
      requestIp: record.ip,
      requestAgent: record.agent,
      requestTime: formatDateTime(new Date(record.createdAt)),
    };
  }

  async confirm(code: unknown, auth: AuthContext): Promise<QrView> {
    const record = await this.read(code);
    this.assertOpen(record, auth);
    record.status = 'confirmed';
    record.userId = auth.userId;
    // The page polls every few seconds; give it time to sign in even near the end of the code's life.
    record.expiresAt = Math.max(record.expiresAt, this.now() + QR_CONFIRMED_MS);
    await this.write(code as string, record);
    return this.view(record);
  }

  async cancel(code: unknown, auth: AuthContext): Promise<QrView> {
    const record = await this.read(code);
    this.assertOpen(record, auth);
    record.status = 'cancelled';
    await this.write(code as string, record);
    return this.view(record);
  }

  /** Scan, confirm and cancel act only on a live code of the caller's tenant, by one user. */
  private assertOpen(record: QrRecord, auth: AuthContext): void {
    if (record.tenantId !== auth.tenantId) throw new QrError(QrMessages.otherTenant);
    const status = this.statusOf(record);
    if (status === 'expired') throw new QrError(QrMessages.expired);
    if (status === 'cancelled') throw new QrError(QrMessages.cancelled);
    if (status === 'confirmed') throw new QrError(QrMessages.confirmed);
    if (record.userId && record.userId !== auth.userId) throw new QrError(QrMessages.scannedByOther);
  }

  /**
   * Uses up a confirmed session (once) and names the user who confirmed it. The record is taken
   * from the store in one step, so two sign-ins racing with the same code cannot both succeed.
   */
  async consume(tenantId: string, code: unknown, state: unknown): Promise<{ tenantId: string; userId: string }> {
    const record = await this.read(code);
    if (typeof state !== 'string' || !stateMatches(record, state) || record.tenantId !== tenantId)
      throw new QrError(QrMessages.invalid);
    const status = this.statusOf(record);
    if (status === 'expired') throw new QrError(QrMessages.expired);
    if (status === 'cancelled') throw new QrError(QrMessages.cancelled);
    if (status !== 'confirmed' || !record.userId) throw new QrError(QrMessages.notConfirmed);
    const taken = await this.ctx.store.take(key(code as string));
    const used = taken ? (JSON.parse(taken) as QrRecord) : undefined;
    if (used?.status !== 'confirmed' || used.userId !== record.userId) throw new QrError(QrMessages.invalid);
    return { tenantId: record.tenantId, userId: record.userId };
  }
}

import type { BilingualText } from '@mes/contracts';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../../app-context';
import { user } from '../../../platform/db/schema';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { badRequest, HttpError } from '../../../platform/http/errors';
import { enabledConfig, PHONE, sendSms } from './sms-sender';
import { SmsMessages } from './sms-messages';

/** A code is valid this long, once. */
export const CODE_TTL_MS = 5 * 60 * 1000;
/** One code per phone per minute. */
export const COOLDOWN_MS = 60 * 1000;
/** Codes asked for from one address per hour. */
export const IP_LIMIT = 10;
export const IP_WINDOW_MS = 60 * 60 * 1000;
/** Wrong codes a code survives; the last one kills it. */
export const MAX_WRONG_CODES = 5;
const CODE_DIGITS = 6;

const codeKey = (tenantId: string, phone: string) => `sms-sign-in:code:${tenantId}:${phone}`;
const wrongKey = (tenantId: string, phone: string) => `sms-sign-in:wrong:${tenantId}:${phone}`;
/** Per phone across tenants: the cooldown protects the phone's owner from being flooded. */
const cooldownKey = (phone: string) => `sms-sign-in:cooldown:${phone}`;
const ipKey = (ip: string) => `sms-sign-in:ip:${ip}`;

/**
 * Codes are kept hashed (with tenant and phone), so the store never shows a usable code. Six
 * digits are easy to brute-force offline, so the real protection is the short life, the single
 * use and the bound on wrong tries.
 */
const tooMany = (message: BilingualText) => new HttpError(429, message);

const hashOf = (tenantId: string, phone: string, code: string) =>
  createHash('sha256').update(`${tenantId}\n${phone}\n${code}`).digest('hex');

/** The spec's three phone checks, in its order; the message is the first that fails. */
export function phoneProblem(phone: string): BilingualText | undefined {
  if (!phone) return SmsMessages.phoneRequired;
  if (phone.length !== 11) return SmsMessages.phoneLength;
  if (!PHONE.test(phone)) return SmsMessages.phoneFormat;
  return undefined;
}

/**
 * Accounts of the tenant with this phone, active or not (at most two: one is the answer, two is
 * ambiguous). Sending needs one to exist; sign-in then says why such an account cannot sign in.
 */
export async function usersWithPhone(ctx: AppContext, tenantId: string, phone: string) {
  return tenantScope(ctx.db, tenantId).select(user).where(eq(user.phone, phone)).limit(2);
}

export interface CodeRequest {
  tenantId: string;
  phone: string;
  ip: string;
  log: FastifyBaseLogger;
}

/**
 * `POST /api/alisms/send`. The reply is the same whether or not the phone belongs to an account
 * of the tenant: a phone without one gets nothing sent, so the endpoint cannot be used to learn
 * which numbers have accounts. Checks in order: phone format, the phone's cooldown, the caller's
 * address budget, the tenant's enabled configuration.
 */
export async function sendSignInCode(ctx: AppContext, request: CodeRequest): Promise<void> {
  const { tenantId, phone } = request;
  const problem = phoneProblem(phone);
  if (problem) throw badRequest(problem);
  if ((await ctx.store.increment(cooldownKey(phone), COOLDOWN_MS)) > 1) throw tooMany(SmsMessages.cooldown);
  const fromIp = await ctx.store.increment(ipKey(request.ip), IP_WINDOW_MS);
  try {
    if (fromIp > IP_LIMIT) throw tooMany(SmsMessages.ipLimit);
    const config = await enabledConfig(ctx, tenantId);
    if (!config) throw badRequest(SmsMessages.notConfigured);
    if (!(await usersWithPhone(ctx, tenantId, phone)).length) return;

    const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    await ctx.store.set(codeKey(tenantId, phone), hashOf(tenantId, phone, code), CODE_TTL_MS);
    await ctx.store.delete(wrongKey(tenantId, phone));
    try {
      await sendSms(ctx, config, { phones: [phone], params: { code } }, request.log);
    } catch (e) {
      await ctx.store.delete(codeKey(tenantId, phone));
      throw e;
    }
  } catch (e) {
    // Nothing was sent: the phone may ask again at once (the address budget still counts).
    await ctx.store.delete(cooldownKey(phone));
    throw e;
  }
}

/**
 * Checks a phone's code and uses it up. A wrong code counts against the code; the fifth wrong
 * one kills it. A refusal comes with the message to show.
 */
export async function consumeSignInCode(
  ctx: AppContext,
  tenantId: string,
  phone: string,
  code: string,
): Promise<{ ok: true } | { ok: false; message: BilingualText }> {
  const key = codeKey(tenantId, phone);
  const stored = await ctx.store.get(key);
  if (!stored) return { ok: false, message: SmsMessages.codeInvalid };
  const given = Buffer.from(hashOf(tenantId, phone, code));
  const expected = Buffer.from(stored);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    const wrong = await ctx.store.increment(wrongKey(tenantId, phone), CODE_TTL_MS);
    if (wrong >= MAX_WRONG_CODES) {
      await ctx.store.delete(key);
      await ctx.store.delete(wrongKey(tenantId, phone));
      return { ok: false, message: SmsMessages.codeTooManyTries };
    }
    return { ok: false, message: SmsMessages.codeInvalid };
  }
  // Two sign-ins racing with the same code: only the one that takes it wins.
  if ((await ctx.store.take(key)) !== stored) return { ok: false, message: SmsMessages.codeInvalid };
  await ctx.store.delete(wrongKey(tenantId, phone));
  return { ok: true };
}

import { createHash, randomUUID } from 'node:crypto';
import { signInLimitText, TokenErrorCode, type BilingualText } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../platform/db/database';
import type { EphemeralStore } from '../../platform/store/ephemeral-store';
import { readIntParam, readParam } from '../../platform/db/params';
import { addressBucket } from './client-address';
import { OAuthError, WrongCredentialsError } from './oauth-error';

/**
 * The params of the sign-in limits (docs/sign-in.md), with the value used when a param is absent
 * or not a positive integer.
 */
export const SignInLimitParams = {
  /** Failures of one account from one address before that address needs the captcha for it. */
  failCount: { key: 'account.failCount', fallback: 5 },
  /** Failures of one account from all addresses before every address needs the captcha for it. */
  accountFailCount: { key: 'account.accountFailCount', fallback: 50 },
  /** Failures from one address, any accounts, before it needs the captcha and waits after each failure. */
  ipFailCount: { key: 'account.ipFailCount', fallback: 20 },
  /** Minutes failures are remembered (fixed windows of the clock). */
  failWindowMinutes: { key: 'account.failWindowMinutes', fallback: 30 },
} as const;

/** `true`: every password sign-in needs a captcha. Anything else (or no param): off. */
export const CAPTCHA_MODE_PARAM = 'account.captchaMode';

/** The longest wait of an address past its limit; the wait doubles from 1 s with each failure. */
export const MAX_WAIT_MS = 15 * 60_000;

interface SignInLimits {
  failCount: number;
  accountFailCount: number;
  ipFailCount: number;
  windowMs: number;
  captchaMode: boolean;
}

export async function readCaptchaMode(db: Db): Promise<boolean> {
  return (await readParam(db, CAPTCHA_MODE_PARAM))?.trim().toLowerCase() === 'true';
}

async function readSignInLimits(db: Db): Promise<SignInLimits> {
  const read = (p: { key: string; fallback: number }) => readIntParam(db, p.key, p.fallback);
  const p = SignInLimitParams;
  const [failCount, accountFailCount, ipFailCount, minutes, captchaMode] = await Promise.all([
    read(p.failCount),
    read(p.accountFailCount),
    read(p.ipFailCount),
    read(p.failWindowMinutes),
    readCaptchaMode(db),
  ]);
  return { failCount, accountFailCount, ipFailCount, windowMs: minutes * 60_000, captchaMode };
}

/** Store keys carry a digest: accounts, tenants and addresses are caller-typed text of any length. */
const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 24);
const accountSubject = (tenantId: string, account: string) => digest(tenantId, account.trim().toLowerCase());

/**
 * Password failures of one subject in the last window. Every attempt is counted in when it starts
 * and counted out ("cleared") unless its password turns out wrong, so attempts still in flight
 * count as failures: a burst of parallel guesses cannot all slip under a limit. Counts are kept
 * per fixed slot of the clock (both counters of a slot expire together); the previous slot adds
 * its failures weighted by how much of it still lies within one window of now, so a limit cannot
 * be doubled by failing on both sides of a slot boundary.
 */
class FailureCounter {
  private readonly slotStart: number;
  private readonly current: { attempts: string; cleared: string };
  private readonly previous: { attempts: string; cleared: string };

  constructor(
    private readonly store: EphemeralStore,
    name: string,
    private readonly windowMs: number,
    private readonly now: number,
  ) {
    const slot = Math.floor(now / windowMs);
    this.slotStart = slot * windowMs;
    const keys = (n: number) => ({ attempts: `${name}:${n}:attempts`, cleared: `${name}:${n}:cleared` });
    this.current = keys(slot);
    this.previous = keys(slot - 1);
  }

  private async read(key: string): Promise<number> {
    return Number((await this.store.get(key)) ?? 0) || 0;
  }

  /** Counts this attempt in; answers the failures before it (attempts in flight included). */
  async begin(): Promise<number> {
    const [attempts, cleared, earlierAttempts, earlierCleared] = await Promise.all([
      this.store.increment(this.current.attempts, 2 * this.windowMs),
      this.read(this.current.cleared),
      this.read(this.previous.attempts),
      this.read(this.previous.cleared),
    ]);
    const stillInWindow = 1 - (this.now - this.slotStart) / this.windowMs;
    const earlier = Math.floor(Math.max(0, earlierAttempts - earlierCleared) * stillInWindow);
    return Math.max(0, attempts - 1 - cleared) + earlier;
  }

  /** This attempt was not a failure. */
  async clear(): Promise<void> {
    await this.store.increment(this.current.cleared, 2 * this.windowMs);
  }

  /** Forgets every failure (a success, or an administrator's unlock). */
  async reset(): Promise<void> {
    const keys = [this.current, this.previous].flatMap((k) => [k.attempts, k.cleared]);
    await Promise.all(keys.map((k) => this.store.delete(k)));
  }
}

/**
 * The counters of one account from one address are named after a generation of the account,
 * which an unlock replaces: the store cannot list the addresses an account failed from. Each use
 * keeps the generation alive longer than any counter named after it.
 */
async function generationOf(store: EphemeralStore, subject: string, windowMs: number): Promise<string> {
  const key = `sign-in:generation:${subject}`;
  const value = await store.get(key);
  if (value) await store.set(key, value, 3 * windowMs);
  return value ?? '0';
}

const waitKey = (address: string) => `sign-in:wait:${address}`;

function countersOf(
  store: EphemeralStore,
  subject: string,
  generation: string,
  address: string,
  limits: SignInLimits,
  now: number,
) {
  return {
    address: new FailureCounter(store, `sign-in:address:${address}`, limits.windowMs, now),
    account: new FailureCounter(store, `sign-in:account:${subject}`, limits.windowMs, now),
    pair: new FailureCounter(store, `sign-in:pair:${subject}:${generation}:${address}`, limits.windowMs, now),
  };
}

/** One password sign-in (password and captcha grants, social link). */
export interface PasswordAttempt {
  tenantId: string;
  /** The account as typed. */
  account: string;
  /** `request.ip`: `X-Forwarded-For` is believed only from the proxies of `TRUST_PROXY`. */
  ip: string;
  /** A valid captcha came with the attempt (and has been used up). */
  captchaSolved: boolean;
}

const captchaError = (text: BilingualText) => new OAuthError(400, text, TokenErrorCode.captchaRequired);

/**
 * Runs `checkPassword` under the sign-in limits (NIST SP 800-63B §5.2.2: limit failed attempts
 * without handing anyone a denial of service). Past a limit the attempt needs a solved captcha
 * (error_code 428) instead of being refused: the right password with a captcha always signs in.
 * The limits: one account from one address (`account.failCount`), one account from everywhere
 * (`account.accountFailCount`), one address across accounts (`account.ipFailCount`, password
 * spraying). Past its limit an address also waits after each failure, 1 s doubling up to 15
 * minutes (429 with Retry-After). Only `WrongCredentialsError` counts as a failure.
 */
export async function limitPasswordAttempt<T>(
  ctx: AppContext,
  attempt: PasswordAttempt,
  checkPassword: () => Promise<T>,
): Promise<T> {
  const limits = await readSignInLimits(ctx.db);
  const now = ctx.clock.now();
  const address = digest(addressBucket(attempt.ip));
  const until = Number((await ctx.store.get(waitKey(address))) ?? 0);
  if (until > now) {
    const seconds = Math.ceil((until - now) / 1000);
    throw new OAuthError(429, signInLimitText('tooManyAttempts'), TokenErrorCode.tooManyAttempts, seconds);
  }

  const subject = accountSubject(attempt.tenantId, attempt.account);
  const generation = await generationOf(ctx.store, subject, limits.windowMs);
  const counters = countersOf(ctx.store, subject, generation, address, limits, now);
  const [fromAddress, ofAccount, ofPair] = await Promise.all([
    counters.address.begin(),
    counters.account.begin(),
    counters.pair.begin(),
  ]);
  const needsCaptcha = (extra: number) =>
    limits.captchaMode ||
    fromAddress + extra >= limits.ipFailCount ||
    ofAccount + extra >= limits.accountFailCount ||
    ofPair + extra >= limits.failCount;

  try {
    if (!attempt.captchaSolved && needsCaptcha(0)) {
      throw captchaError(signInLimitText(limits.captchaMode ? 'captchaRequired' : 'captchaAfterFailures'));
    }
    const result = await checkPassword();
    // The address keeps its count: a sprayer must not reset it by signing in to an account of its own.
    await Promise.all([counters.account.reset(), counters.pair.reset(), counters.address.clear()]);
    return result;
  } catch (e) {
    if (!(e instanceof WrongCredentialsError)) {
      await Promise.all([counters.address.clear(), counters.account.clear(), counters.pair.clear()]);
      throw e;
    }
    const over = fromAddress + 1 - limits.ipFailCount;
    if (over >= 0) {
      const wait = Math.min(1000 * 2 ** Math.min(over, 30), MAX_WAIT_MS);
      await ctx.store.set(waitKey(address), String(now + wait), wait);
    }
    if (needsCaptcha(1)) throw captchaError(signInLimitText('badCredentialsCaptchaNext'));
    throw e;
  }
}

/** Forgets an account's failures, from every address (the user screen's 账号解封). */
export async function unlockAccount(ctx: AppContext, tenantId: string, account: string): Promise<void> {
  const limits = await readSignInLimits(ctx.db);
  const subject = accountSubject(tenantId, account);
  const ofAccount = new FailureCounter(ctx.store, `sign-in:account:${subject}`, limits.windowMs, ctx.clock.now());
  await Promise.all([
    ofAccount.reset(),
    ctx.store.set(`sign-in:generation:${subject}`, randomUUID(), 3 * limits.windowMs),
  ]);
}

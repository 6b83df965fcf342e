/**
 * Short-lived shared state: captcha codes, failed sign-in counters, revoked sessions.
 * PostgreSQL by default (durable, shared by every API process), Redis when `REDIS_URL` is set.
 * Every call takes the current time from the caller's clock so expiry is testable.
 */
export interface EphemeralStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Reads and deletes in one step: a value can be taken once (single-use codes). */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /** Adds one and returns the new count; the expiry is set when the counter is created. */
  increment(key: string, ttlMs: number): Promise<number>;
  /** Drops expired entries (a no-op where the backend expires them itself). */
  purgeExpired(): Promise<void>;
  close(): Promise<void>;
}

/** The time source of the server; tests move it forward to expire tokens, codes and locks. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

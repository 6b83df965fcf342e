import { isDatabaseUnavailable } from '../../platform/db/unavailable';

/**
 * Whether a batch that failed should simply be tried again, rather than split to find a message
 * that fails alone: the database could not be reached or dropped the connection (the platform's
 * `isDatabaseUnavailable`), or it refused for a reason that passes by itself — a serialization
 * failure or deadlock (40), insufficient resources (53), operator intervention (57), a system
 * error (58), a lock not available (55P03, 55006). A failure of the database is never a verdict on
 * a message.
 */

const TRANSIENT_CLASSES = new Set(['40', '53', '57', '58']);
const TRANSIENT_STATES = new Set(['55P03', '55006']);

/** The error and the errors it wraps (drizzle's `cause`, an AggregateError's `errors`). */
export function* errorChain(error: unknown, depth = 0): Generator<unknown> {
  if (error === undefined || error === null || depth > 8) return;
  yield error;
  if (typeof error !== 'object') return;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (cause !== undefined) yield* errorChain(cause, depth + 1);
  if (Array.isArray(errors)) for (const inner of errors) yield* errorChain(inner, depth + 1);
}

/** The SQLSTATE of the first PostgreSQL error in the chain. */
export function sqlState(error: unknown): string | undefined {
  for (const e of errorChain(error)) {
    const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export function isWorthRetrying(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const state = sqlState(error);
  return state !== undefined && (TRANSIENT_CLASSES.has(state.slice(0, 2)) || TRANSIENT_STATES.has(state));
}

/**
 * Whether an error means the database could not be reached or dropped the connection, rather than
 * refusing what was sent. Ingestion's own copy until platform/db/unavailable.ts
 * (`isDatabaseUnavailable`) is merged: the lead may replace this file with a re-export of it.
 */

/** Socket-level failures: the server is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that say nothing about the statement: connection exceptions (08), insufficient
 * resources (53), operator intervention (57: shutdown, cannot connect now, query canceled), system
 * errors (58), and transaction rollbacks (40: serialization failure, deadlock) which a retry solves.
 */
const UNAVAILABLE_CLASSES = new Set(['08', '40', '53', '57', '58']);
const UNAVAILABLE_STATES = new Set(['55P03', '55006']);

/** node-postgres and pg-pool report a lost or impossible connection with these messages, without a code. */
const UNAVAILABLE_TEXT =
  /connection terminated|timeout exceeded when trying to connect|connection error|not queryable|terminating connection|cannot use a pool after calling end|the database system is (starting up|shutting down)/i;

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

export function isDatabaseUnavailable(error: unknown): boolean {
  // A SQLSTATE decides alone: the server answered, and said why.
  const state = sqlState(error);
  if (state) return UNAVAILABLE_CLASSES.has(state.slice(0, 2)) || UNAVAILABLE_STATES.has(state);
  for (const e of errorChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    // A wrapper's message quotes the statement and its parameters (device data): never read it.
    if (typeof message === 'string' && !message.startsWith('Failed query') && UNAVAILABLE_TEXT.test(message))
      return true;
  }
  return false;
}

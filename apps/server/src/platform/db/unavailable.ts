/**
 * Whether an error means "the database could not be reached or dropped the connection" — an
 * outage, which says nothing about the request or message being handled — as opposed to an error
 * the database gave about the statement itself (a constraint, a bad value, a syntax error), which
 * retrying will not cure.
 *
 * Callers use it to answer 503 instead of 500, and to retry device data instead of judging it.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableIn(error, 0);
}

/**
 * SQLSTATEs of an outage: class 08 (connection exception) is matched by prefix; these are the
 * others — the server shutting down or restarting (57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now, 57P05 idle session timeout) and no connection slot left (53300).
 */
const OUTAGE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '53300']);

/** Socket and name-resolution failures Node reports as `code` on the error. */
const OUTAGE_SYSCALL_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/**
 * How node-postgres's messages of a lost or unobtainable connection begin; it gives them no code.
 * "timeout exceeded when trying to connect" is the pool's `connectionTimeoutMillis`.
 */
const OUTAGE_MESSAGES = [
  'connection terminated',
  'timeout exceeded when trying to connect',
  'client has encountered a connection error and is not queryable',
  'connection ended unexpectedly',
  'server closed the connection unexpectedly',
  'the database system is starting up',
  'the database system is shutting down',
  'the database system is in recovery mode',
  'terminating connection due to administrator command',
];

/** Wrappers (drizzle's query error, AggregateError of a dual-stack connect) are looked through. */
const MAX_DEPTH = 5;

function unavailableIn(error: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (/^08[0-9A-Z]{3}$/.test(code) || OUTAGE_SQLSTATES.has(code) || OUTAGE_SYSCALL_CODES.has(code)) return true;
    // Any other SQLSTATE is the database's verdict on the statement. Its message may quote the
    // offending value, so a value reading "connection terminated" must not pass for an outage.
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  // A wrapper's own text counts only by how it begins: drizzle's ("Failed query: … params: …")
  // quotes the statement's parameters, which may be anything a caller sent.
  if (typeof message === 'string') {
    const lower = message.toLowerCase();
    if (OUTAGE_MESSAGES.some((m) => lower.startsWith(m))) return true;
  }
  if (cause !== undefined && unavailableIn(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.some((e) => unavailableIn(e, depth + 1));
}

/** A local error-log entry (spec section 3 "Local error log"). */
export interface ErrorLogEntry {
  type: 'error';
  message: string;
  stack: string;
  /** Where it was caught: the script position, `unhandledrejection`, or React's component stack. */
  info: string;
  /** The page address when it happened. */
  url: string;
  /** Epoch milliseconds. */
  time: number;
}

/** Entries kept locally; the oldest go first. */
export const MAX_LOCAL_ENTRIES = 200;
/** Entries per upload: the server takes at most this many at once. */
export const UPLOAD_BATCH = 100;
/** Longest text per field; the server refuses longer (apps/server/src/modules/log/error-log-routes.ts). */
export const FIELD_LIMITS = { message: 2000, stack: 8000, info: 2000, url: 2000 } as const;

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** A readable message for anything thrown or rejected (errors, strings, objects, undefined). */
export function describeReason(reason: unknown): { message: string; stack: string } {
  if (reason instanceof Error) return { message: reason.message || reason.name, stack: reason.stack ?? '' };
  if (typeof reason === 'string') return { message: reason, stack: '' };
  if (reason === undefined) return { message: 'undefined', stack: '' };
  try {
    return { message: JSON.stringify(reason) ?? String(reason), stack: '' };
  } catch {
    // Cyclic objects cannot be serialised.
    return { message: String(reason), stack: '' };
  }
}

export function makeEntry(fields: {
  message: string;
  stack?: string;
  info?: string;
  url: string;
  time: number;
}): ErrorLogEntry {
  return {
    type: 'error',
    message: clip(fields.message, FIELD_LIMITS.message),
    stack: clip(fields.stack ?? '', FIELD_LIMITS.stack),
    info: clip(fields.info ?? '', FIELD_LIMITS.info),
    url: clip(fields.url, FIELD_LIMITS.url),
    time: fields.time,
  };
}

/** Appends and keeps the newest `max` entries. */
export function appendCapped(
  list: readonly ErrorLogEntry[],
  entry: ErrorLogEntry,
  max = MAX_LOCAL_ENTRIES,
): ErrorLogEntry[] {
  const next = [...list, entry];
  return next.length > max ? next.slice(next.length - max) : next;
}

/** Splits into upload batches of at most `size`. */
export function batches<T>(list: readonly T[], size = UPLOAD_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

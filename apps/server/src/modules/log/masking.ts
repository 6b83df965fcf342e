/**
 * What the logs keep of request parameters: secrets masked at any depth, long values cut. A log
 * is read by more people than the data it describes, so a password or token must never reach it.
 */

/** Parameter names whose values are secrets (`password`, `refresh_token`, `secretKey`, `Captcha-Key`). */
export const SECRET_NAME = /pass(word)?|token|secret|key|credential/i;
export const MASK = '******';
/** Longest parameter text kept per row. */
export const MAX_PARAMS_CHARS = 4000;
/** Bodies declared larger than this are not parsed for the log at all. */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024;
export const TRUNCATED = '…(已截断)';
const MAX_DEPTH = 8;

/** A copy of `value` with every secret-named property, at any depth, replaced by {@link MASK}. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    out[name] = SECRET_NAME.test(name) ? MASK : maskSecrets(item, depth + 1);
  }
  return out;
}

/** `text` cut to `max` characters, marked when cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}${TRUNCATED}`;
}

const isEmptyObject = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

export interface RequestParams {
  query: unknown;
  body: unknown;
  contentType: string | undefined;
  contentLength: string | undefined;
}

/**
 * The parameters of a request as one JSON text: the query string and the body (form or JSON),
 * secrets masked. Multipart bodies (files), raw text or binary bodies (which cannot be masked
 * by name) and bodies over {@link MAX_LOGGED_BODY_BYTES} are described, not recorded.
 */
export function paramsText({ query, body, contentType, contentLength }: RequestParams): string {
  const parts: Record<string, unknown> = {};
  if (!isEmptyObject(query)) parts.query = maskSecrets(query);
  if (contentType?.startsWith('multipart/')) parts.body = '(multipart)';
  else if (Number(contentLength) > MAX_LOGGED_BODY_BYTES) parts.body = `(${contentLength} bytes)`;
  else if (typeof body === 'string') parts.body = body ? `(text, ${body.length} chars)` : undefined;
  else if (Buffer.isBuffer(body)) parts.body = `(binary, ${body.length} bytes)`;
  else if (!isEmptyObject(body)) parts.body = maskSecrets(body);
  if (parts.body === undefined) delete parts.body;
  if (!('query' in parts) && !('body' in parts)) return '';
  return truncate(JSON.stringify(parts), MAX_PARAMS_CHARS);
}

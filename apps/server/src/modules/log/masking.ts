/**
 * What the request logs keep of request parameters: secrets masked at any depth (the platform's
 * redaction rules), long values cut, files and raw bodies described instead of recorded.
 */

import { maskSecrets, truncate } from '../../platform/audit/redaction';

// The redaction rules are the platform's (shared with the operation log); re-exported for the log writers.
export { MASK, SECRET_NAME, TRUNCATED, maskSecrets, truncate } from '../../platform/audit/redaction';

/** Longest parameter text kept per row. */
export const MAX_PARAMS_CHARS = 4000;
/** Bodies declared larger than this are not parsed for the log at all. */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024;

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

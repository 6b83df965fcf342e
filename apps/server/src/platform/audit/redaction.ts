/**
 * What any audit record keeps of values it describes: secrets masked at any depth, long texts
 * cut. Audit records (operation log, request logs) are read by more people than the data they
 * describe, so a password or token must never reach one.
 */

/** Names whose values are secrets (`password`, `refresh_token`, `secretKey`, `Captcha-Key`). */
export const SECRET_NAME = /pass(word)?|token|secret|key|credential/i;
export const MASK = '******';
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

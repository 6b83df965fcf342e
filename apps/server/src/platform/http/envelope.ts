import { formatDateTime, Messages, type ApiResult, type PageResult } from '@mes/contracts';

export function ok<T>(data: T, msg: string = Messages.success): ApiResult<T> {
  return { code: 200, success: true, data, msg };
}

export function fail(code: number, msg: string): ApiResult<null> {
  return { code, success: false, data: null, msg };
}

export function pageOf<T>(records: T[], total: number, current: number, size: number): PageResult<T> {
  return { records, total, size, current, pages: size > 0 ? Math.ceil(total / size) : 0 };
}

/**
 * A copy of `value` that plain `JSON.stringify` writes as the replies do: dates as
 * `yyyy-MM-dd HH:mm:ss` (an invalid date as null), 64-bit integers as strings, other values
 * through their own `toJSON`. Copying once and stringifying natively is faster than a replacer
 * function, which V8 calls back for every key and which takes JSON off its fast path.
 */
function wireValue(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint' ? value.toString() : value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : formatDateTime(value);
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = wireValue(value[i], String(i));
    return out;
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return wireValue((toJSON as (key: string) => unknown).call(value, key), key);
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value)) out[name] = wireValue((value as Record<string, unknown>)[name], name);
  return out;
}

/** JSON for every reply: dates as `yyyy-MM-dd HH:mm:ss` and 64-bit integers as strings. */
export function serializeJson(payload: unknown): string {
  return JSON.stringify(wireValue(payload, ''));
}

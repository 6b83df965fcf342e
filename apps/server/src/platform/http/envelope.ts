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
 * JSON for every reply: dates as `yyyy-MM-dd HH:mm:ss` and 64-bit integers as strings.
 * `this[key]` is the raw value; `value` has already been through `toJSON`.
 */
export function serializeJson(payload: unknown): string {
  return JSON.stringify(payload, function (this: Record<string, unknown>, key: string, value: unknown) {
    const raw = this[key];
    if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : formatDateTime(raw);
    if (typeof value === 'bigint') return value.toString();
    return value;
  });
}

/**
 * The BladeX response envelope. Every `/api` reply except the OAuth token endpoint uses it;
 * `success` is true exactly when `code` is 200, and the HTTP status mirrors `code`.
 */
export interface ApiResult<T> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

/** A page of a list, as every `page`/`list` route with paging returns it. */
export interface PageResult<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** Result codes used in the envelope; each is also the HTTP status of the reply. */
export const ResultCode = {
  SUCCESS: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** Page sizes offered by every list (spec section 9). */
export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** The largest page a client may ask for; bigger requests are clamped, not refused. */
export const MAX_PAGE_SIZE = 1000;

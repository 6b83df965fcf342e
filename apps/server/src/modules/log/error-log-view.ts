import type { Row } from '../../engine/resource-routes';

/**
 * What a tenant administrator reads of the error log. The rows record the server's internals
 * (stack traces, SQL and its bound values, request parameters, file names and hosts) for the
 * platform's administrators; a tenant's administrator gets what identifies an error to report
 * it (error id, exception name, message, when, who, which route), never the internals.
 */
const TENANT_FIELDS = [
  'id',
  'strId',
  'tenantId',
  'serviceId',
  'exceptionName',
  'message',
  'method',
  'requestUri',
  'createBy',
  'createTime',
] as const;

/** Filters a tenant caller may use; the others would reveal hidden values by trial and error. */
export const TENANT_FILTERS: ReadonlySet<string> = new Set(TENANT_FIELDS);

/** Shown to tenant callers instead of the message of a database error. */
export const DATABASE_ERROR_MESSAGE = '数据库操作异常,请将错误编号告知平台管理员';
export const HIDDEN_PATH = '[路径已隐藏]';

/** Error classes of the database driver and the query builder (pg names its errors `error`). */
const DATABASE_ERRORS = new Set(['DatabaseError', 'DrizzleQueryError', 'DrizzleError', 'error']);
/** Frames of the driver and the query builder in a stack trace. */
const DATABASE_FRAMES = /node_modules[\\/](?:pg|pg-protocol|pg-pool|drizzle-orm|postgres)[\\/]/;
/** Texts of the query builder's and PostgreSQL's messages that carry statements or values. */
const DATABASE_TEXT =
  /failed query|\bparams:|\b(?:select|insert|update|delete)\b[\s\S]*\b(?:from|into|set|where)\b|violates [a-z -]*constraint|\b(?:relation|column|table|constraint|schema) "|syntax error at or near|duplicate key value|invalid input syntax/i;
/** Absolute file paths (POSIX, Windows, file URLs); URL paths after a host are left alone. */
const FILE_PATH = /file:\/\/\S+|\b[A-Za-z]:\\[^\s'"()]+|(?<![\w.:/-])\/(?:[\w.@+-]+\/)+[\w.@+-]*/g;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Whether a row records a database error, whose message may quote SQL or stored values. */
export function isDatabaseError(row: Row): boolean {
  return (
    DATABASE_ERRORS.has(text(row.exceptionName)) ||
    DATABASE_FRAMES.test(text(row.stackTrace)) ||
    DATABASE_TEXT.test(text(row.message))
  );
}

/** The tenant administrator's view of one error-log row (see the module comment). */
export function tenantErrorView(row: Row): Row {
  const shown: Row = {};
  for (const name of TENANT_FIELDS) if (name in row) shown[name] = row[name];
  shown.message = isDatabaseError(row) ? DATABASE_ERROR_MESSAGE : text(row.message).replace(FILE_PATH, HIDDEN_PATH);
  // Client errors record the page address; its query string is the user's input, not the route.
  if (typeof shown.requestUri === 'string') shown.requestUri = shown.requestUri.replace(/[?#][\s\S]*$/, '');
  return shown;
}

import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type pg from 'pg';
import {
  apiLogResource,
  DEFAULT_TENANT_ID,
  Messages,
  MessagesEn,
  errorLogResource,
  loginLogResource,
  usualLogResource,
} from '@mes/contracts';
import type { PageTotals } from '../../engine/page-totals';
import type { AuthContext } from '../../platform/auth/request-auth';
import type { ApiLogRecord, LogWriters, SignInRecord, UsualEvent } from '../../platform/audit/log-writers';
import type { Db } from '../../platform/db/database';
import { nextId } from '../../platform/db/ids';
import { apiLog, errorLog, loginLog, usualLog } from '../../platform/db/schema';
import type { Clock } from '../../platform/store/ephemeral-store';
import { BatchWriter } from './batch-writer';
import { jsonInserter } from './log-tables';
import { paramsText, truncate } from './masking';
import { pruneLogs, type PruneResult } from './retention';
import { serverIdentity, type ServerIdentity } from './server-identity';
import { isId } from '../../platform/db/ids';

/**
 * `resourceTable`'s column types always carry the audit columns; log tables have none of them
 * (`audit: false`) but `create_user` and `create_time`, which they declare as fields.
 */
type NoAudit<T> = Omit<T, 'createDept' | 'updateUser' | 'updateTime' | 'status' | 'isDeleted'>;
export type UsualLogRow = NoAudit<typeof usualLog.$inferInsert>;
export type ErrorLogRow = NoAudit<typeof errorLog.$inferInsert>;
export type LoginLogRow = NoAudit<typeof loginLog.$inferInsert>;

/** How often queued rows are written, and the list totals of written logs dropped. */
export const FLUSH_EVERY_MS = 1000;
/** Rows per insert; a full batch is written at once. */
export const MAX_BATCH = 500;
/** Rows waiting at most per log; the oldest are dropped beyond it. */
export const MAX_QUEUE = 10_000;

/** What the client hears of an unhandled error: the generic message and the error log row to quote. */
export const serverErrorMessage = (errorId: string, lang: 'zh' | 'en' = 'zh') =>
  lang === 'en'
    ? `${MessagesEn.internalError} (error no. ${errorId})`
    : `${Messages.internalError}(错误编号 ${errorId})`;

const MAX_STACK = 8000;
const MAX_MESSAGE = 2000;

export interface LogServiceOptions {
  db: Db;
  pool: pg.Pool;
  clock: Clock;
  totals: PageTotals;
  /** Record every API request (`API_LOG`, default on). */
  apiLog: boolean;
}

const TENANT_ID = /^[0-9A-Za-z]{1,12}$/;
/** A tenant id from a request is kept only if it has the shape of one (the column holds 12). */
export const tenantOrPlatform = (tenantId: string | undefined) =>
  tenantId && TENANT_ID.test(tenantId) ? tenantId : DEFAULT_TENANT_ID;

export const headerText = (request: FastifyRequest, name: string, max: number): string => {
  const value = request.headers[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};

/** Path of a request URL without its query string (parameters are logged masked, apart). */
export const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** The request fields every usual and error row carries. */
export function requestFields(request: FastifyRequest) {
  return {
    method: request.method.slice(0, 16),
    requestUri: truncate(pathOf(request.url), 1990),
    userAgent: headerText(request, 'user-agent', 1000),
    remoteIp: request.ip.slice(0, 255),
    methodClass: (request.routeOptions.url ?? '').slice(0, 255),
    params: paramsText({
      query: request.query,
      body: request.body,
      contentType: request.headers['content-type'],
      contentLength: request.headers['content-length'],
    }),
  };
}

/** First frame of a stack trace that names a file: `at fn (/path/file.ts:12:5)`. */
export function stackLocation(stack: string | undefined): { fileName: string; lineNumber: number | null } {
  const match = /\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?\s*$/m.exec(
    (stack ?? '')
      .split('\n')
      .filter((line) => line.trim().startsWith('at '))
      .join('\n'),
  );
  if (!match) return { fileName: '', lineNumber: null };
  return { fileName: (match[1] ?? '').slice(0, 1000), lineNumber: Number(match[2]) };
}

/**
 * The class of an error as the log names it. Some libraries leave `name` generic (the query
 * builder's `Error`, the database driver's `error`); their class name tells more, and lets the
 * error log recognise database errors (error-log-view.ts).
 */
export function exceptionNameOf(e: Error): string {
  const generic = !e.name || e.name === 'Error' || e.name === 'error';
  return (generic ? e.constructor?.name : e.name) || e.name || 'Error';
}

/**
 * The writers of the API, usual, error and login logs (the operation log is written inside the
 * changing transaction, see `platform/audit/operation-audit.ts`). Rows are queued and written in batches every
 * {@link FLUSH_EVERY_MS} (or when a batch is full) and at shutdown, so no request waits for a
 * log and a failing insert costs log rows, never a request. Old partitions are dropped by the durable
 * `log.prune` job (retention.ts, scheduled in runtime.ts), which calls {@link LogService.prune}.
 *
 * The flush stays a timer of each process: the rows it writes live in that process's memory, so
 * no other process could write them, and a job per second per process would only add queue rows
 * (and latency) around an insert that is already safe to repeat or lose.
 */
export type { ApiLogRecord, SignInRecord, UsualEvent };

export class LogService implements LogWriters {
  readonly apiLogEnabled: boolean;
  readonly server: ServerIdentity = serverIdentity();
  private logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> | undefined;
  private readonly writers: {
    code: string;
    writer: BatchWriter<unknown>;
  }[] = [];
  private readonly api: BatchWriter<ApiLogRecord>;
  private readonly usualWriter: BatchWriter<UsualLogRow>;
  private readonly errors: BatchWriter<ErrorLogRow>;
  private readonly logins: BatchWriter<LoginLogRow>;
  /** Logs written since the list totals were last dropped. */
  private readonly written = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private pruning: Promise<PruneResult> | undefined;
  private closed = false;

  constructor(private readonly options: LogServiceOptions) {
    this.apiLogEnabled = options.apiLog;
    this.api = this.writer(apiLogResource.code, jsonInserter<ApiLogRecord>(options.pool, apiLog, 'columns'));
    this.usualWriter = this.writer(usualLogResource.code, jsonInserter<UsualLogRow>(options.pool, usualLog));
    this.errors = this.writer(errorLogResource.code, jsonInserter<ErrorLogRow>(options.pool, errorLog));
    this.logins = this.writer(loginLogResource.code, jsonInserter<LoginLogRow>(options.pool, loginLog));
  }

  private writer<T>(code: string, insert: (rows: T[]) => Promise<void>): BatchWriter<T> {
    const writer = new BatchWriter<T>({
      name: code,
      maxBatch: MAX_BATCH,
      maxQueue: MAX_QUEUE,
      insert: async (rows) => {
        await insert(rows);
        this.written.add(code);
      },
      warn: (message, error) => this.warn(message, error),
    });
    this.writers.push({ code, writer: writer as unknown as BatchWriter<unknown> });
    return writer;
  }

  /** Warnings go to the server's logger once the app has one. */
  useLogger(logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>): void {
    this.logger = logger;
  }

  /** A warning for the server's log (also used by the job queue, which starts before the app). */
  warn(message: string, error?: unknown): void {
    if (this.logger) this.logger.warn({ err: error }, message);
    else process.emitWarning(`${message}: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Starts the flush timer. */
  start(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.flushTimer.unref();
  }

  /** The time a row is written at (the context's clock, which tests move). */
  now(): Date {
    return new Date(this.options.clock.now());
  }

  /** Rows lost so far (full queues, failed inserts), per log. */
  dropped(): Record<string, number> {
    return Object.fromEntries(this.writers.map(({ code, writer }) => [code, writer.dropped]));
  }

  recordApi(record: ApiLogRecord): void {
    if (!this.closed) this.api.push(record);
  }

  /** A business event, under the tenant and account of `auth` (or the platform's, without one). */
  usual(auth: AuthContext | undefined, event: UsualEvent): void {
    if (this.closed) return;
    this.usualWriter.push({
      ...this.server,
      ...(event.request ? requestFields(event.request) : {}),
      id: nextId(),
      tenantId: auth?.tenantId ?? DEFAULT_TENANT_ID,
      logLevel: event.level ?? 'info',
      logId: event.logId.slice(0, 64),
      logData: truncate(event.logData, MAX_MESSAGE),
      createBy: auth?.account ?? '',
      createUser: auth?.userId ?? null,
      createTime: this.now(),
    });
  }

  /**
   * An unhandled server error, with the request that met it. Returns the row's id: the client
   * is told only that id, to quote to an administrator.
   */
  serverError(error: unknown, request?: FastifyRequest, elapsedMs?: number): string {
    const id = nextId();
    if (this.closed) return id;
    const e = error instanceof Error ? error : new Error(String(error));
    const auth = request?.authContext;
    this.errors.push({
      ...this.server,
      ...(request ? requestFields(request) : {}),
      ...stackLocation(e.stack),
      id,
      tenantId: auth?.tenantId ?? DEFAULT_TENANT_ID,
      exceptionName: exceptionNameOf(e).slice(0, 255),
      message: truncate(e.message, MAX_MESSAGE),
      stackTrace: truncate(e.stack ?? '', MAX_STACK),
      time: elapsedMs === undefined ? '' : String(Math.round(elapsedMs)),
      createBy: auth?.account ?? '',
      createUser: auth?.userId ?? null,
      createTime: this.now(),
    });
    return id;
  }

  signIn(record: SignInRecord): void {
    if (this.closed) return;
    this.logins.push({
      id: nextId(),
      tenantId: tenantOrPlatform(record.tenantId),
      account: record.account.slice(0, 64),
      userId: record.userId && isId(record.userId) ? record.userId : null,
      grantType: record.grantType.slice(0, 32),
      success: record.success ? 1 : 0,
      message: (record.message ?? '').slice(0, 255),
      clientId: (record.clientId ?? '').slice(0, 64),
      remoteIp: record.remoteIp.slice(0, 255),
      userAgent: record.userAgent.slice(0, 1000),
      createTime: this.now(),
    });
  }

  /** Writes every queued row, then drops the list totals of the logs written. */
  async flush(): Promise<void> {
    await Promise.all(this.writers.map(({ writer }) => writer.flush()));
    const codes = [...this.written];
    this.written.clear();
    // `*`: the platform's totals (every tenant) go stale along with the writing tenant's.
    await Promise.all(codes.map((code) => this.options.totals.changed(code, '*').catch(() => undefined)));
  }

  /**
   * Partition upkeep of the logs (retention.ts): partitions ahead, whole partitions older than
   * `log.retentionDays` dropped; one run at a time. A failure rejects, so that the job running it
   * is retried and, in the end, shown as failed.
   */
  prune(): Promise<PruneResult> {
    if (this.pruning) return this.pruning;
    const run = pruneLogs(this.options.db, this.now())
      .then(async (result) => {
        if (result.dropped.length)
          this.logger?.info(
            { dropped: result.dropped, cutoff: result.cutoff, retentionDays: result.retentionDays },
            'log retention: dropped partitions',
          );
        if (result.postponed.length)
          this.warn('log retention: partitions postponed to the next run (table lock busy)', result.postponed);
        const codes = Object.entries(result.deleted).filter(([, n]) => n > 0);
        await Promise.all(codes.map(([code]) => this.options.totals.changed(code, '*')));
        return result;
      })
      .finally(() => {
        this.pruning = undefined;
      });
    this.pruning = run;
    return run;
  }

  /** Stops the flush timer and writes what is queued (shutdown). */
  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.pruning?.catch(() => undefined);
    await this.flush();
    this.closed = true;
  }
}

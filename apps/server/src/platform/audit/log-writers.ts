import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { UsualLogLevel } from '@mes/contracts';
import type { AuthContext } from '../auth/request-auth';

/**
 * What the rest of the server may ask of the log writers through `AppContext.logs`. The writers
 * themselves (`modules/log/log-service.ts`) are a module; the engine and the platform depend only
 * on this shape, so no arrow points from them up to the module (ARCHITECTURE.md).
 */
export interface LogWriters {
  /** Whether API calls are logged (a setting). */
  readonly apiLogEnabled: boolean;
  /** Which server process writes the rows. */
  readonly server: ServerIdentity;
  /** The writers' clock, so a row's time and the tests' clock agree. */
  now(): Date;
  useLogger(logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>): void;
  /** A problem worth an operator's eye that is not a request's error. */
  warn(message: string, error?: unknown): void;
  recordApi(record: ApiLogRecord): void;
  usual(auth: AuthContext | undefined, event: UsualEvent): void;
  /** Queues the error-log row of a 5xx and answers its id (shown to the user). */
  serverError(error: unknown, request?: FastifyRequest, elapsedMs?: number): string;
  signIn(record: SignInRecord): void;
  /** Writes the queued rows now (shutdown, and tests that read them back). */
  flush(): Promise<void>;
  /** Runs the logs' retention once (the `log.prune` job). */
  prune(): Promise<PruneResult>;
}

/** Which server process wrote a log row (BladeX `serviceId`, `serverHost`, `serverIp`, `env`). */
export interface ServerIdentity {
  serviceId: string;
  serverHost: string;
  serverIp: string;
  env: string;
}

/**
 * One API-log row keyed by column name, complete, built as one object literal per request: the
 * hot path, so the batch is serialised as it is (`log-tables.ts`). A test reads the rows back
 * through the table's own columns.
 */
export interface ApiLogRecord {
  id: string;
  tenant_id: string;
  type: string;
  title: string;
  service_id: string;
  server_host: string;
  server_ip: string;
  env: string;
  method: string;
  request_uri: string;
  user_agent: string;
  remote_ip: string;
  method_class: string;
  method_name: string;
  params: string;
  create_by: string;
  create_user: string | null;
  status: number;
  time: number;
  create_time: Date;
}

/** A business event for the usual log (`ctx.logs.usual`). */
export interface UsualEvent {
  /** What happened, as a dotted code: `tenant.create`, `user.resetPassword`. */
  logId: string;
  /** What happened, for a person: `新建租户 100001 租户A`. */
  logData: string;
  level?: UsualLogLevel;
  /** The request that caused it (URI, parameters, address); absent for work without one. */
  request?: FastifyRequest;
}

/** One sign-in attempt for the login log. */
export interface SignInRecord {
  tenantId: string;
  account: string;
  userId?: string | undefined;
  grantType: string;
  success: boolean;
  /** Why it failed (the `error_description` sent back). */
  message?: string | undefined;
  clientId?: string | undefined;
  remoteIp: string;
  userAgent: string;
}

/** What one run of the logs' retention did. */
export interface PruneResult {
  retentionDays: number;
  cutoff: Date;
  /** Rows removed per log (dropped partitions by their statistics' row count). */
  deleted: Record<string, number>;
  /** Partitions created and dropped, by name, and those left to the next run (lock not free). */
  created: string[];
  dropped: string[];
  postponed: string[];
}

import { and, eq, inArray, isNotNull, lte, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import cronParser from 'cron-parser';
import type { Template } from '@pdfme/common';
import {
  formatDateTime,
  REPORT_KEEP_DAYS_DEFAULT,
  REPORT_KEEP_DAYS_PARAM,
  REPORT_MAX_ROWS,
  ReportFileStatus,
  ReportFrequency,
  ReportScheduleStatus,
  reportFileResource,
  type ReportFormat,
  type ReportRunParams,
} from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../app-context';
import type { AuthContext } from '../../platform/auth/request-auth';
import { splitIds } from '../../platform/auth/request-auth';
import type { TokenClaims } from '../../platform/auth/tokens';
import { nextId } from '../../platform/db/ids';
import { readIntParam } from '../../platform/db/params';
import { reportFile, reportSchedule, reportTemplate, role, user } from '../../platform/db/schema';
import { HttpError } from '../../platform/http/errors';
import { defineJob } from '../../platform/jobs/job-definition';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { newObjectKey } from '../providers/storage/provider';
import { storageOf, uploadTarget } from '../providers/storage/tenant-storage';
import { attachmentDisposition } from '../providers/storage/file-types';
import type { ExportQuestion } from '../../engine/export/export-reader';
import { threadSource } from '../../engine/export/export-source';
import { threadReaders } from '../../engine/export/thread-readers';
import { bothOf, planReport, planRows, ReportMessages, type ReportPlan, type ReportTemplateRow } from './report-data';
import { checkLayout } from './report-layout';
import { REPORT_TOO_LONG, takeRenderThread, type PdfWorkerRequest } from './report-pdf-pool';
import { shapeReport } from './report-shape';

/**
 * Report runs (docs/reports.md): a file row is written `queued` with its job in one transaction,
 * the `report.generate` job reads the data as the file's creator, renders, stores the bytes
 * through the tenant's object storage and records size and status; progress is written to the
 * row as it goes, which the screen polls. Schedules are claimed by a `report.schedules` sweep
 * every minute; files past `report.file.keepDays` are removed by `report.retention`.
 */
export const reportGenerateJob = defineJob({
  name: 'report.generate',
  payload: z.object({ tenantId: z.string().max(12), fileId: z.string().max(20) }),
  // A report that fails is shown failed with its error (the handler records it; the user or the
  // next schedule runs it again). The one retry is for a run whose process died (docs/jobs.md).
  retry: { limit: 1, delaySeconds: 5, backoff: false },
  expireInSeconds: 600,
});
export const reportSchedulesJob = defineJob({ name: 'report.schedules', payload: z.object({}) });
export const reportRetentionJob = defineJob({ name: 'report.retention', payload: z.object({}) });
export const reportRemoveObjectJob = defineJob({
  name: 'report.remove-object',
  payload: z.object({ tenantId: z.string().max(12), ossCode: z.string().max(32), key: z.string().max(128) }),
  retry: { limit: 5, delaySeconds: 30, backoff: true },
});

const MIME: Record<ReportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** The caller a job acts as: the file's creator with their current department and live roles. */
export async function actingUser(ctx: AppContext, tenantId: string, userId: string): Promise<AuthContext | undefined> {
  const scope = tenantScope(ctx.db, tenantId);
  const [row] = await scope
    .select(user, { account: user.account, name: user.realName, deptId: user.deptId, roleId: user.roleId })
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) return undefined;
  const roleIds = splitIds(row.roleId ?? '');
  const roles = roleIds.length
    ? await scope.select(role, { id: role.id, alias: role.roleAlias }).where(inArray(role.id, roleIds))
    : [];
  const claims: TokenClaims = {
    tenant_id: tenantId,
    user_id: userId,
    dept_id: row.deptId ?? '',
    post_id: '',
    role_id: roles.map((r) => r.id).join(','),
    role_name: roles.map((r) => r.alias).join(','),
    account: row.account,
    user_name: row.name ?? row.account,
    client_id: 'report',
    token_type: 'access_token',
    sid: '',
    session_exp: 0,
    stamp: '',
    jti: '',
    exp: 0,
    iat: 0,
  };
  return {
    tenantId,
    userId,
    deptId: row.deptId ?? '',
    roleIds: roles.map((r) => r.id),
    roleAliases: roles.map((r) => r.alias),
    account: row.account,
    clientId: 'report',
    claims,
  };
}

export const fileNameOf = (name: string, format: ReportFormat, at: Date) =>
  `${name.replace(/[\\/:*?"<>|\s]+/g, '_')}_${formatDateTime(at).replace(/[-: ]/g, '').slice(0, 12)}.${format}`;

type Queryable = AppContext['db'];

/** Writes a file row in `queued` state and its job, in the caller's transaction (or its own). */
export async function queueReport(
  ctx: AppContext,
  tx: Parameters<Parameters<Queryable['transaction']>[0]>[0],
  args: {
    tenantId: string;
    userId: string;
    userName: string;
    deptId: string;
    template: { id: string; name: string };
    format: ReportFormat;
    params: ReportRunParams;
    scheduleId?: string;
    at: Date;
  },
): Promise<string> {
  const id = nextId();
  await tenantScope(tx, args.tenantId)
    .insert(reportFile)
    .values({
      id,
      name: fileNameOf(args.template.name, args.format, args.at),
      templateId: args.template.id,
      format: args.format,
      params: args.params,
      state: ReportFileStatus.queued,
      progress: 0,
      scheduleId: args.scheduleId ?? null,
      createUserName: args.userName.slice(0, 64),
      createUser: args.userId,
      createDept: splitIds(args.deptId)[0] ?? null,
      createTime: args.at,
      updateUser: args.userId,
      updateTime: args.at,
    });
  await ctx.jobs.enqueueInTransaction(tx, reportGenerateJob, { tenantId: args.tenantId, fileId: id });
  return id;
}

async function setFile(ctx: AppContext, tenantId: string, id: string, values: Partial<typeof reportFile.$inferInsert>) {
  await tenantScope(ctx.db, tenantId)
    .update(reportFile)
    .set({ ...values, updateTime: new Date(ctx.clock.now()) })
    .where(eq(reportFile.id, id));
  await ctx.totals.changed(reportFileResource.code, tenantId);
}

/** Makes one report file: data read as its creator, rendered in a worker thread, stored. */
export async function generateReport(ctx: AppContext, tenantId: string, fileId: string): Promise<void> {
  const scope = tenantScope(ctx.db, tenantId);
  // The file's state decides whether there is work: a run whose process died left it `running`
  // (run it again), a finished one left it done or failed (nothing to redo). The object key is
  // chosen once, so a second run overwrites the first's object instead of leaving a second one.
  const [file] = await scope
    .update(reportFile)
    .set({
      state: ReportFileStatus.running,
      progress: 5,
      error: '',
      objectKey: sql`coalesce(nullif(${reportFile.objectKey}, ''), ${newObjectKey(ctx.clock.now(), '')} || '.' || ${reportFile.format})`,
      updateTime: new Date(ctx.clock.now()),
    })
    .where(
      and(eq(reportFile.id, fileId), inArray(reportFile.state, [ReportFileStatus.queued, ReportFileStatus.running])),
    )
    .returning();
  if (!file) return;
  await ctx.totals.changed(reportFileResource.code, tenantId);
  const progress = (p: number) => setFile(ctx, tenantId, fileId, { progress: Math.round(p) });
  // The render thread loads its renderers while the data is read (report-pdf-pool.ts).
  const thread = takeRenderThread();
  try {
    const [template] = file.templateId
      ? await scope.select(reportTemplate).where(eq(reportTemplate.id, file.templateId)).limit(1)
      : [];
    if (!template) throw new HttpError(400, ReportMessages.templateGone);
    const auth = file.createUser ? await actingUser(ctx, tenantId, file.createUser) : undefined;
    if (!auth) throw new HttpError(400, ReportMessages.requesterGone);
    // A layout stored before it was checked on save (or by hand) fails here with its problem named.
    if (template.layout) checkLayout(template.layout);
    const plan = await planReport(ctx, auth, template as ReportTemplateRow, (file.params ?? {}) as ReportRunParams);
    const format = file.format as ReportFormat;
    const layout = (template.layout as Template | null) ?? null;
    const job = await renderJob(ctx, plan, auth, format, layout);
    let rowCount = job.rows;
    await progress(30);
    let last = 30;
    let bytes: Buffer;
    const giveBack = job.answer ? await threadReaders.take() : undefined;
    try {
      bytes = Buffer.from(
        await thread.render(job.request, {
          onProgress: (done) => {
            const p = 30 + done * 60;
            // A write per tenth is progress enough, and keeps the row's updates few. Best effort: a
            // write lost to a database blip must not reject unhandled (the run's own writes decide).
            if (p - last >= 10) progress((last = p)).catch(() => undefined);
          },
          answer: job.answer,
          onRows: (rows) => (rowCount = rows),
        }),
      );
    } finally {
      giveBack?.();
    }
    await progress(90);
    const storage = await uploadTarget(ctx, tenantId);
    const key = file.objectKey || newObjectKey(ctx.clock.now(), format);
    await storage.put({ key, bytes, contentType: MIME[format], contentDisposition: attachmentDisposition(file.name) });
    await setFile(ctx, tenantId, fileId, {
      state: ReportFileStatus.done,
      progress: 100,
      size: bytes.length,
      rowCount,
      ossCode: storage.ossCode,
      objectKey: key,
      finishTime: new Date(ctx.clock.now()),
    });
    if (file.scheduleId) await scheduleOutcome(ctx, tenantId, file.scheduleId, 'done', '');
  } catch (error) {
    // What is refused carries its message in both languages; anything else is the generator's own.
    const text =
      error instanceof HttpError && error.text
        ? error.text
        : (error as { code?: unknown }).code === REPORT_TOO_LONG
          ? ReportMessages.tooMany(REPORT_MAX_ROWS)
          : ReportMessages.failed(error instanceof Error ? error.message : String(error));
    const message = bothOf(text).slice(0, 2000);
    await setFile(ctx, tenantId, fileId, {
      state: ReportFileStatus.failed,
      error: message,
      finishTime: new Date(ctx.clock.now()),
    });
    if (file.scheduleId) await scheduleOutcome(ctx, tenantId, file.scheduleId, 'failed', message);
  } finally {
    thread.release();
  }
}

/**
 * What the report thread is given: a list or register's query when the thread can read it itself
 * (export-source.ts: the rows are read, named and shaped there, the main thread answering its
 * questions), else the report's data read and shaped here (a summary's few grouped rows).
 */
async function renderJob(
  ctx: AppContext,
  plan: ReportPlan,
  auth: AuthContext,
  format: ReportFormat,
  layout: Template | null,
): Promise<{ request: PdfWorkerRequest; rows: number; answer?: (question: unknown) => Promise<unknown> }> {
  const source = 'detail' in plan ? await threadSource(ctx, plan.detail.service, plan.detail.query, auth) : undefined;
  if (source)
    return {
      request: { kind: 'read', source: source.source, shape: plan.shape, format, layout },
      rows: 0,
      answer: (question) => source.answer(question as ExportQuestion),
    };
  const shaped = shapeReport(plan.shape, await planRows(plan, auth));
  if ('tooMany' in shaped) throw new HttpError(400, ReportMessages.tooMany(shaped.tooMany));
  const { data } = shaped;
  return {
    request: format === 'pdf' ? { kind: 'report', data, layout } : { kind: 'xlsx', data },
    rows: data.rows.length,
  };
}

/** A run that could not finish (its process died on its last try): failed, with why, unless it finished after all. */
export async function reportInterrupted(ctx: AppContext, tenantId: string, fileId: string, message: string) {
  const [file] = await tenantScope(ctx.db, tenantId)
    .update(reportFile)
    .set({
      state: ReportFileStatus.failed,
      error: message.slice(0, 2000),
      finishTime: new Date(ctx.clock.now()),
      updateTime: new Date(ctx.clock.now()),
    })
    .where(
      and(eq(reportFile.id, fileId), inArray(reportFile.state, [ReportFileStatus.queued, ReportFileStatus.running])),
    )
    .returning({ scheduleId: reportFile.scheduleId });
  if (!file) return;
  await ctx.totals.changed(reportFileResource.code, tenantId);
  if (file.scheduleId) await scheduleOutcome(ctx, tenantId, file.scheduleId, 'failed', message);
}

async function scheduleOutcome(ctx: AppContext, tenantId: string, id: string, status: string, error: string) {
  await tenantScope(ctx.db, tenantId)
    .update(reportSchedule)
    .set({ lastStatus: status, lastError: error })
    .where(eq(reportSchedule.id, id));
}

/** The cron of a schedule's frequency and time (`30 6 * * 1`). */
export function cronOf(row: { frequency: string; runAt: string; weekday?: number | null; monthDay?: number | null }) {
  const [h, m] = row.runAt.split(':').map(Number) as [number, number];
  if (row.frequency === ReportFrequency.weekly) return `${m} ${h} * * ${(row.weekday ?? 1) % 7}`;
  if (row.frequency === ReportFrequency.monthly) return `${m} ${h} ${row.monthDay ?? 1} * *`;
  return `${m} ${h} * * *`;
}

/** The first time the cron fires after `after` (server time zone). */
export const nextRunOf = (cron: string, after: Date): Date =>
  cronParser.parseExpression(cron, { currentDate: after }).next().toDate();

const day = (d: Date) => formatDateTime(d).slice(0, 10);

/** The period a run reads: what ended before it (yesterday, the last 7 days, last month). */
export function periodBefore(frequency: string, at: Date): { from: string; to: string } {
  const today = new Date(at.getFullYear(), at.getMonth(), at.getDate());
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  if (frequency === ReportFrequency.weekly)
    return { from: day(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 7)), to: day(yesterday) };
  if (frequency === ReportFrequency.monthly)
    return {
      from: day(new Date(today.getFullYear(), today.getMonth() - 1, 1)),
      to: day(new Date(today.getFullYear(), today.getMonth(), 0)),
    };
  return { from: day(yesterday), to: day(yesterday) };
}

/**
 * Starts the runs that are due. A run is claimed by moving the schedule's `nextRunTime` past now
 * in one UPDATE that holds only while it is still due: of two processes (or two sweeps) that read
 * the same due row, the second waits for the first's row lock, then finds it no longer due and
 * updates nothing, so a run happens once.
 */
export async function runDueSchedules(ctx: AppContext): Promise<number> {
  const now = new Date(ctx.clock.now());
  const due = await ctx.db
    .select()
    .from(reportSchedule)
    .where(
      and(
        eq(reportSchedule.isDeleted, 0),
        sql`${reportSchedule.status} = ${ReportScheduleStatus.on}`,
        isNotNull(reportSchedule.nextRunTime),
        lte(reportSchedule.nextRunTime, now),
      ),
    )
    .limit(100);
  let started = 0;
  for (const s of due) {
    await ctx.db.transaction(async (tx) => {
      const claimed = await tenantScope(tx, s.tenantId)
        .update(reportSchedule)
        .set({ nextRunTime: nextRunOf(s.cron, now), lastRunTime: now, lastStatus: 'running', lastError: '' })
        .where(and(eq(reportSchedule.id, s.id), lte(reportSchedule.nextRunTime, now)))
        .returning({ id: reportSchedule.id });
      if (!claimed.length) return;
      const [template] = await tenantScope(tx, s.tenantId)
        .select(reportTemplate, { id: reportTemplate.id, name: reportTemplate.name })
        .where(eq(reportTemplate.id, s.templateId as string))
        .limit(1);
      const owner = s.createUser ? await actingUser(ctx, s.tenantId, s.createUser) : undefined;
      if (!template || !owner) {
        await tenantScope(tx, s.tenantId)
          .update(reportSchedule)
          .set({
            lastStatus: 'failed',
            lastError: bothOf(template ? ReportMessages.ownerGone : ReportMessages.templateGone),
          })
          .where(eq(reportSchedule.id, s.id));
        return;
      }
      const filters = Object.fromEntries(
        Object.entries((s.filters ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      await queueReport(ctx, tx, {
        tenantId: s.tenantId,
        userId: owner.userId,
        userName: owner.claims.user_name,
        deptId: owner.deptId,
        template,
        format: s.format as ReportFormat,
        params: { ...periodBefore(s.frequency, now), filters },
        scheduleId: s.id,
        at: now,
      });
      started++;
    });
  }
  if (started)
    for (const t of new Set(due.map((s) => s.tenantId))) await ctx.totals.changed(reportFileResource.code, t);
  return started;
}

/** Removes files older than `report.file.keepDays` (rows and stored objects), every tenant. */
export async function removeExpiredReports(ctx: AppContext): Promise<number> {
  const days = await readIntParam(ctx.db, REPORT_KEEP_DAYS_PARAM, REPORT_KEEP_DAYS_DEFAULT);
  const before = new Date(ctx.clock.now() - days * 86_400_000);
  const old = await ctx.db
    .select({
      id: reportFile.id,
      tenantId: reportFile.tenantId,
      ossCode: reportFile.ossCode,
      key: reportFile.objectKey,
    })
    .from(reportFile)
    .where(and(eq(reportFile.isDeleted, 0), lt(reportFile.createTime, before)))
    .limit(1000);
  for (const f of old) {
    await ctx.db.transaction(async (tx) => {
      await tenantScope(tx, f.tenantId).update(reportFile).set({ isDeleted: 1 }).where(eq(reportFile.id, f.id));
      if (f.key)
        await ctx.jobs.enqueueInTransaction(tx, reportRemoveObjectJob, {
          tenantId: f.tenantId,
          ossCode: f.ossCode,
          key: f.key,
        });
    });
  }
  for (const t of new Set(old.map((f) => f.tenantId))) await ctx.totals.changed(reportFileResource.code, t);
  return old.length;
}

export async function removeStoredReport(ctx: AppContext, tenantId: string, ossCode: string, key: string) {
  const storage = await storageOf(ctx, ctx.db, tenantId, ossCode);
  await storage.remove(key);
}

/** Jobs and schedules of the reports, once per context. */
export function startReportJobs(ctx: AppContext): void {
  oncePerContext(ctx, reportGenerateJob.name, () => {
    ctx.jobs.register(reportGenerateJob, ({ tenantId, fileId }) => generateReport(ctx, tenantId, fileId), {
      // Its last try died with its process: the file says so instead of staying `running`.
      failed: ({ tenantId, fileId }, message) => reportInterrupted(ctx, tenantId, fileId, message),
    });
    ctx.jobs.register(reportSchedulesJob, async () => ({ started: await runDueSchedules(ctx) }));
    ctx.jobs.register(reportRetentionJob, async () => ({ removed: await removeExpiredReports(ctx) }));
    ctx.jobs.register(reportRemoveObjectJob, async ({ tenantId, ossCode, key }) => {
      await removeStoredReport(ctx, tenantId, ossCode, key);
    });
    ctx.jobs.schedule(reportSchedulesJob, '* * * * *', {});
    ctx.jobs.schedule(reportRetentionJob, '41 3 * * *', {});
  });
}

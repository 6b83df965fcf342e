import fs from 'node:fs';
import { count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Template } from '@pdfme/common';
import {
  bilingual,
  invalidParamText,
  REPORT_DATA_PATH,
  REPORT_DOWNLOAD_PATH,
  REPORT_FONT_PATH,
  REPORT_FORMATS,
  REPORT_LAYOUT_PATH,
  REPORT_GENERATE_PATH,
  REPORT_PREVIEW_PATH,
  REPORT_PREVIEW_ROWS,
  ReportFileStatus,
  reportFileResource,
  reportScheduleResource,
  reportTemplateResource,
  type ReportFormat,
  type ReportRunParams,
} from '@mes/contracts';
import type { AuthContext } from '../../platform/auth/request-auth';
import type { AppContext } from '../../app-context';
import { registerResource, resourceServiceOf } from '../../engine/resource-routes';
import { requireAuth } from '../../platform/auth/request-auth';
import { reportFile, reportSchedule, reportTemplate } from '../../platform/db/schema';
import { recordOperation } from '../../platform/audit/operation-audit';
import { ok } from '../../platform/http/envelope';
import { requestLanguage } from '../../platform/http/request-language';
import { tenantScope, type Queryable } from '../../platform/tenancy/tenant-scope';
import { atLimit } from '../../platform/http/fair-shares';
import { badRequest, notFound } from '../../platform/http/errors';
import { idValue, paramsOf } from '../../platform/http/request-params';
import { attachmentDisposition } from '../providers/storage/file-types';
import { storageOf } from '../providers/storage/tenant-storage';
import { reportData, ReportMessages, type ReportTemplateRow } from './report-data';
import { checkLayout } from './report-layout';
import { REPORT_FONT_FILE } from './report-pdf';
import { renderPdfInWorker } from './report-pdf-pool';
import { cronOf, nextRunOf, queueReport, reportRemoveObjectJob, startReportJobs } from './report-runs';

/** The largest layout accepted (the field's `max`). */
const LAYOUT_MAX = 2_000_000;

/** The day a template's saved fields are tried on (any day does: only the fields are checked). */
const TRIAL_DAY = '2000-01-01';
/** Rows of real data a saved layout is tried with before it is kept. */
const LAYOUT_TRIAL_ROWS = 5;

function runParamsOf(value: unknown): ReportRunParams {
  if (value === undefined || value === null || value === '') return {};
  let parsed: unknown;
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : value;
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest(invalidParamText('params', { zh: '应为 JSON 对象', en: 'must be a JSON object' }));
  return parsed as ReportRunParams;
}

/**
 * A layout the generator prints (docs/reports.md "Layouts"): its shape is checked, then it is
 * printed with the template's first rows, so that what pdfme would still refuse is refused here.
 */
async function printableLayout(
  ctx: AppContext,
  auth: AuthContext,
  template: ReportTemplateRow,
  layout: unknown,
): Promise<Template> {
  checkLayout(layout);
  const sample = await reportData(ctx, auth, template, {}, LAYOUT_TRIAL_ROWS, { truncate: true });
  try {
    await renderPdfInWorker(sample, layout as Template);
  } catch (error) {
    throw badRequest(ReportMessages.unprintable(error instanceof Error ? error.message : String(error)));
  }
  return layout as Template;
}

/**
 * Reports (docs/reports.md): templates (`/blade-report/template`, with the designer's data,
 * preview and font), report files (`/blade-report/report/rest`: list, detail and remove of the
 * engine, generate and download) and schedules (`/blade-report/schedule`).
 */
/**
 * A 429 when the tenant already has `share` report files queued or generating (any process: the
 * files are in the database), so one tenant's burst cannot fill the job queue ahead of the others.
 */
async function refuseBeyondShare(db: Queryable, tenantId: string, share: number): Promise<void> {
  const [row] = await tenantScope(db, tenantId)
    .select(reportFile, { n: count() })
    .where(inArray(reportFile.state, [ReportFileStatus.queued, ReportFileStatus.running]));
  if ((row?.n ?? 0) >= share) throw atLimit('report', bilingual('reportsAtLimit', share));
}

export function registerReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  startReportJobs(ctx);
  const templates = registerResource(app, ctx, {
    def: reportTemplateResource,
    table: reportTemplate,
    hooks: {
      // What the template reads (source, date field, groups, measures, columns) is read once, as
      // the user saving it: a field its source does not have is refused now, not when it runs.
      async beforeChange({ values, existing, auth }) {
        const row = { ...existing, ...values } as unknown as ReportTemplateRow;
        if (!resourceServiceOf(ctx, row.source)) throw badRequest(ReportMessages.noSource(row.source));
        // One day of the date field (if any) has it checked too, and keeps the read small.
        const day = row.dateField ? { from: TRIAL_DAY, to: TRIAL_DAY } : {};
        await reportData(ctx, auth, row, day, 1, { truncate: true });
      },
      beforeRemove({ rows }) {
        if (rows.some((r) => r.builtIn === true)) throw badRequest(ReportMessages.builtInRemove);
      },
    },
  });
  const files = registerResource(app, ctx, {
    def: reportFileResource,
    table: reportFile,
    hooks: {
      // The stored file goes with its row, after the commit, by a durable job (docs/storage.md).
      async afterRemove({ rows, auth, enqueue }) {
        for (const row of rows)
          if (row.objectKey)
            await enqueue(reportRemoveObjectJob, {
              tenantId: auth.tenantId,
              ossCode: String(row.ossCode),
              key: String(row.objectKey),
            });
      },
    },
  });
  registerResource(app, ctx, {
    def: reportScheduleResource,
    table: reportSchedule,
    hooks: {
      beforeChange({ values, existing }) {
        const row = { ...existing, ...values } as Parameters<typeof cronOf>[0];
        const cron = cronOf(row);
        values.cron = cron;
        values.nextRunTime = nextRunOf(cron, new Date(ctx.clock.now())) as unknown as string;
      },
    },
  });

  const templateCode = reportTemplateResource.code;
  const fileCode = reportFileResource.code;

  const templateOf = async (id: unknown, auth: ReturnType<typeof requireAuth>) =>
    (await templates.detail(id, auth)) as unknown as ReportTemplateRow & { id: string };

  app.post(`/api${REPORT_GENERATE_PATH}`, { config: { apiScope: `${fileCode}:generate` } }, async (request) => {
    const auth = requireAuth(request);
    const body = paramsOf(request);
    const format = body.format as ReportFormat;
    if (!REPORT_FORMATS.includes(format)) throw badRequest(ReportMessages.badFormat);
    const template = await templateOf(idValue(body.templateId, 'templateId'), auth);
    const params = runParamsOf(body.params);
    const share = app.fairShares.limits.reportsPerTenant;
    // The tenant's share of report generations: refused before the data is read...
    await refuseBeyondShare(ctx.db, auth.tenantId, share);
    // Checked now, so that a bad range or a source the caller may not read is a 400 here, not a failed file.
    await reportData(ctx, auth, template, params, 1, { truncate: true });
    const id = await ctx.db.transaction(async (tx) => {
      // ...and counted again under the tenant's lock, so concurrent requests cannot all slip under it.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`report-share:${auth.tenantId}`}))`);
      await refuseBeyondShare(tx, auth.tenantId, share);
      return queueReport(ctx, tx, {
        tenantId: auth.tenantId,
        userId: auth.userId,
        userName: auth.claims.user_name || auth.account,
        deptId: auth.deptId,
        template,
        format,
        params,
        at: new Date(ctx.clock.now()),
      });
    });
    await ctx.totals.changed(fileCode, auth.tenantId);
    return ok(id);
  });

  app.get(`/api${REPORT_DOWNLOAD_PATH}`, { config: { apiScope: `${fileCode}:read` } }, async (request, reply) => {
    const auth = requireAuth(request);
    const row = await files.detail((request.query as Record<string, unknown>).id, auth);
    if (row.state !== ReportFileStatus.done || !row.objectKey) throw notFound(ReportMessages.notGenerated);
    const storage = await storageOf(ctx, ctx.db, auth.tenantId, String(row.ossCode));
    const body = await storage.open(String(row.objectKey));
    if (!body) throw notFound(ReportMessages.fileGone);
    return reply
      .header('Content-Type', row.format === 'pdf' ? 'application/pdf' : 'application/octet-stream')
      .header('Content-Disposition', attachmentDisposition(String(row.name)))
      .header('Cache-Control', 'private, no-store')
      .send(body);
  });

  app.get(`/api${REPORT_DATA_PATH}`, { config: { apiScope: `${templateCode}:read` } }, async (request) => {
    const auth = requireAuth(request);
    const query = request.query as Record<string, unknown>;
    const template = await templateOf(query.id, auth);
    return ok(
      await reportData(ctx, auth, template, runParamsOf(query.params), REPORT_PREVIEW_ROWS, { truncate: true }),
    );
  });

  // The designer's layout (a pdfme template object, or null for the plain layout): one of the
  // caller's templates, in its tenant; kept only once it prints (the field's `savedBy`).
  app.post(`/api${REPORT_LAYOUT_PATH}`, { config: { apiScope: `${templateCode}:write` } }, async (request) => {
    const auth = requireAuth(request);
    const body = paramsOf(request);
    const saved = await templateOf(idValue(body.id, 'id'), auth);
    const layout = body.layout;
    if (layout === undefined || (layout !== null && (typeof layout !== 'object' || Array.isArray(layout))))
      throw badRequest(invalidParamText('layout', { zh: '应为对象或 null', en: 'must be an object or null' }));
    const text = JSON.stringify(layout);
    if (text.length > LAYOUT_MAX)
      throw badRequest(
        invalidParamText('layout', { zh: `最多 ${LAYOUT_MAX} 个字符`, en: `at most ${LAYOUT_MAX} characters` }),
      );
    if (layout !== null) await printableLayout(ctx, auth, saved, layout);
    await ctx.db.transaction(async (tx) => {
      await tenantScope(tx, auth.tenantId)
        .update(reportTemplate)
        .set({ layout: layout as Record<string, unknown> | null, updateUser: auth.userId, updateTime: new Date() })
        .where(eq(reportTemplate.id, saved.id));
      await recordOperation(tx, {
        def: reportTemplateResource,
        auth,
        operation: 'update',
        ids: [saved.id],
        changes: [{ field: 'layout', label: '版式', before: '…', after: '…' }],
        at: new Date(),
      });
    });
    return ok(true, requestLanguage(request) === 'en' ? 'Saved' : '保存成功');
  });

  // The template being designed (saved or not) with the first rows of real data, as a PDF.
  app.post(`/api${REPORT_PREVIEW_PATH}`, { config: { apiScope: `${templateCode}:read` } }, async (request, reply) => {
    const auth = requireAuth(request);
    const body = paramsOf(request);
    const saved = await templateOf(idValue(body.id, 'id'), auth);
    const data = await reportData(ctx, auth, saved, runParamsOf(body.params), REPORT_PREVIEW_ROWS, { truncate: true });
    // The layout being designed (checked as a save would), else the saved one (null: the plain layout).
    const layout =
      body.layout === undefined || body.layout === null
        ? ((saved.layout as Template | null) ?? null)
        : await printableLayout(ctx, auth, saved, body.layout);
    let bytes: Uint8Array;
    try {
      bytes = await renderPdfInWorker(data, layout);
    } catch (error) {
      throw badRequest(ReportMessages.unprintable(error instanceof Error ? error.message : String(error)));
    }
    return reply.header('Content-Type', 'application/pdf').header('Cache-Control', 'no-store').send(Buffer.from(bytes));
  });

  // The font the PDFs use, for the designer (the same file, so what is designed is what prints).
  app.get(`/api${REPORT_FONT_PATH}`, { config: { apiScope: `${templateCode}:read` } }, async (_request, reply) =>
    reply
      .header('Content-Type', 'font/ttf')
      .header('Cache-Control', 'private, max-age=86400')
      .send(fs.createReadStream(REPORT_FONT_FILE)),
  );
}

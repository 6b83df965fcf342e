import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { PageResult } from '@mes/contracts';
import { FAILED_JOBS_PATH, FAILED_JOBS_SCOPE } from '../src/modules/jobs/failed-jobs-routes';
import { logPruneJob } from '../src/modules/log/retention';
import { nextId } from '../src/platform/db/ids';
import { readParam } from '../src/platform/db/params';
import { apiLog, apiScope, ephemeralEntry, roleScope, user } from '../src/platform/db/schema';
import type { FailedJob } from '../src/platform/jobs/failed-jobs';
import { defineJob } from '../src/platform/jobs/job-definition';
import { storePurgeJob } from '../src/platform/jobs/store-purge';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The server's own jobs (log retention, the store's purge) and the platform administrator's view
 * of failed jobs, on the real app with a fast-polling queue.
 */
let t: TestApp;
let platformAdmin: string;

const DAY = 24 * 60 * 60 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(100);
  }
}

async function startApp(): Promise<TestApp> {
  const app = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5, stopTimeoutMs: 5000 } });
  // The context starts the queue in the background; the server (main.ts) waits for it like this.
  await app.ctx.jobs.started();
  return app;
}

const failedPage = (token: string, query = '') => t.as(token, { method: 'GET', url: `${FAILED_JOBS_PATH}${query}` });

beforeAll(async () => {
  t = await startApp();
  platformAdmin = (await t.signIn()).access_token;
}, 120_000);
afterAll(() => t.close());

describe('housekeeping jobs', () => {
  it('schedules log retention, the store purge, the records and the report jobs in the database', async () => {
    // Modules schedule their jobs as their routes register, each in the background: wait until
    // the list stops growing rather than reading it once.
    const schedules = async () =>
      (
        await t.ctx.db.execute<{ name: string; cron: string }>(
          sql`select name, cron from pgboss.schedule order by name`,
        )
      ).rows;
    await waitFor(async () => (await schedules()).length >= 11);
    expect(await schedules()).toEqual([
      { name: 'device.inactivity', cron: '* * * * *' },
      { name: 'log.prune', cron: '7 * * * *' },
      { name: 'maintenance.due-notices', cron: '*/10 * * * *' },
      { name: 'packs.expiry', cron: '*/10 * * * *' },
      { name: 'records.from-cycles', cron: '* * * * *' },
      { name: 'records.retention', cron: '23 3 * * *' },
      { name: 'report.retention', cron: '41 3 * * *' },
      { name: 'report.schedules', cron: '* * * * *' },
      { name: 'series.upkeep', cron: '7 * * * *' },
      { name: 'store.purge', cron: '*/10 * * * *' },
      { name: 'warning.escalate', cron: '* * * * *' },
    ]);
  });

  it('prunes old log rows when log.prune runs', async () => {
    const old = new Date(t.clock.now() - 91 * DAY);
    const id = nextId();
    await t.ctx.db.insert(apiLog).values({ id, tenantId: '000000', createTime: old, requestUri: '/jobs-old' });
    await t.ctx.jobs.enqueue(logPruneJob, {});
    await waitFor(async () => (await t.ctx.db.select().from(apiLog).where(eq(apiLog.id, id))).length === 0);
    // The job's output is what the prune reports (the completion is written just after the run).
    const pruned = async () =>
      (
        await t.ctx.db.execute<{ output: { retentionDays: number; deleted: Record<string, number> } | null }>(
          sql`select output from pgboss.job where name = 'log.prune' and state = 'completed'`,
        )
      ).rows.some((r) => r.output?.retentionDays === 90 && r.output.deleted.log_api === 1);
    await waitFor(pruned);
  });

  it('drops expired store entries when store.purge runs', async () => {
    await t.ctx.store.set('jobs-test-expiring', 'x', 1000);
    t.clock.advance(2000);
    const left = () => t.ctx.db.select().from(ephemeralEntry).where(eq(ephemeralEntry.key, 'jobs-test-expiring'));
    expect(await left()).toHaveLength(1);
    await t.ctx.jobs.enqueue(storePurgeJob, {});
    await waitFor(async () => (await left()).length === 0);
  });
});

describe('GET /api/blade-system/jobs/failed', () => {
  const doomed = defineJob({
    name: 'test.doomed',
    payload: z.object({ target: z.string() }),
    retry: { limit: 0 },
  });
  const other = defineJob({ name: 'test.other', payload: z.object({}), retry: { limit: 0 } });
  let doomedIds: string[] = [];

  beforeAll(async () => {
    t.ctx.jobs.register(doomed, async ({ target }) => {
      throw new Error(`cannot reach ${target}`);
    });
    t.ctx.jobs.register(other, async () => {
      throw new Error('other failure');
    });
    doomedIds = [
      (await t.ctx.jobs.enqueue(doomed, { target: 'printer-1' })) as string,
      (await t.ctx.jobs.enqueue(doomed, { target: 'printer-2' })) as string,
    ];
    await t.ctx.jobs.enqueue(other, {});
    const failed = async () =>
      Number(
        (await t.ctx.db.execute<{ n: string }>(sql`select count(*) as n from pgboss.job where state = 'failed'`))
          .rows[0]?.n,
      );
    await waitFor(async () => (await failed()) === 3);
  }, 30_000);

  it('lists failed jobs with their error, latest first, in the page shape of every list', async () => {
    const res = await failedPage(platformAdmin);
    expect(res.statusCode).toBe(200);
    const page = res.json<{ data: PageResult<FailedJob> }>().data;
    expect(page).toMatchObject({ total: 3, size: 10, current: 1, pages: 1 });
    expect(page.records).toHaveLength(3);
    const printer1 = page.records.find((r) => r.id === doomedIds[0]);
    expect(printer1).toMatchObject({
      name: 'test.doomed',
      payload: { target: 'printer-1' },
      error: 'cannot reach printer-1',
      retryCount: 0,
      retryLimit: 0,
    });
    expect(printer1?.failTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const failTimes = page.records.map((r) => String(r.failTime));
    expect([...failTimes].sort().reverse()).toEqual(failTimes);
  });

  it('filters by kind of job and pages', async () => {
    const byName = (await failedPage(platformAdmin, '?name=test.doomed&size=1&current=2')).json<{
      data: PageResult<FailedJob>;
    }>().data;
    expect(byName).toMatchObject({ total: 2, size: 1, current: 2, pages: 2 });
    expect(byName.records).toHaveLength(1);
    expect(byName.records[0]?.name).toBe('test.doomed');
    const past = (await failedPage(platformAdmin, '?current=9')).json<{ data: PageResult<FailedJob> }>().data;
    expect(past).toMatchObject({ records: [], total: 3, current: 9 });
    const none = (await failedPage(platformAdmin, '?name=log.prune')).json<{ data: PageResult<FailedJob> }>().data;
    expect(none).toMatchObject({ records: [], total: 0 });
  });

  it('answers bad query values with 400, never 500', async () => {
    const bad = [
      '?current=0',
      '?current=abc',
      '?current=99999999999',
      '?size=-1',
      '?size=1.5',
      '?current=1&current=2',
      '?name=Not%20a%20job',
      '?name=a%00b',
      `?name=${'a'.repeat(101)}`,
      '?name[x]=1',
      '?id=1',
      '?descs=created_on',
    ];
    const answers: string[] = [];
    for (const query of bad) {
      const res = await failedPage(platformAdmin, query);
      answers.push(`${query} → ${res.statusCode}`);
      expect(res.json().success).toBe(false);
    }
    expect(answers).toEqual(bad.map((q) => `${q} → 400`));
    const message = (await failedPage(platformAdmin, '?current=0')).json().msg;
    expect(message).toBe('请求参数 current 不正确: 应为 1 到 2147483647 之间的整数');
    // The messages of every list (the engine's parser answers this list too).
    const msg = async (query: string) => (await failedPage(platformAdmin, query)).json<{ msg: string }>().msg;
    expect(await msg('?size=1&size=2')).toBe('请求参数 size 不正确: 只能有一个值');
    expect(await msg('?name=DROP%20TABLE')).toBe('请求参数 name 不正确: 应为任务名称,如 log.prune');
    expect(await msg('?state=failed')).toBe('不支持的查询条件: state');
  });

  it('caps the page size like every list and sorts by the declared fields', async () => {
    const capped = (await failedPage(platformAdmin, '?size=5000')).json<{ data: PageResult<FailedJob> }>().data;
    expect(capped).toMatchObject({ size: 1000, current: 1, total: 3 });
    const oldestFirst = (await failedPage(platformAdmin, '?ascs=fail_time')).json<{ data: PageResult<FailedJob> }>()
      .data.records;
    const times = oldestFirst.map((r) => String(r.failTime));
    expect([...times].sort()).toEqual(times);
  });

  it('exports the failed jobs as a workbook with the error messages, and has no writes', async () => {
    const res = await t.as(platformAdmin, {
      method: 'GET',
      url: '/api/blade-system/jobs/export?name=test.doomed',
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header = (sheet?.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['任务名称', '错误', '失败时间']));
    // The aggregate's own 创建时间 field, not a second audit column.
    expect(header.filter((h) => h === '创建时间')).toHaveLength(1);
    const errorColumn = header.indexOf('错误') + 1;
    const errors = [2, 3].map((n) => String(sheet?.getRow(n).getCell(errorColumn).value)).sort();
    expect(errors).toEqual(['cannot reach printer-1', 'cannot reach printer-2']);
    expect(sheet?.rowCount).toBe(3);
    for (const url of ['/api/blade-system/jobs/submit', '/api/blade-system/jobs/remove'])
      expect((await t.as(platformAdmin, { method: 'POST', url, payload: { id: doomedIds[0] } })).statusCode).toBe(404);
  });

  it('is for the platform: refused anonymously, without the scope, and to other tenants', async () => {
    expect((await t.app.inject({ method: 'GET', url: FAILED_JOBS_PATH })).statusCode).toBe(401);

    // A platform user whose role holds no API scope.
    const plain = await signInWithScopes(t, { account: 'jobsplain', codes: [] });
    expect((await failedPage(plain)).statusCode).toBe(403);

    // The jobs:read scope (as the seed will declare it) opens the route to a platform user...
    const scopeId = nextId();
    await t.ctx.db.insert(apiScope).values({
      id: scopeId,
      menuId: nextId(),
      resourceCode: FAILED_JOBS_SCOPE,
      scopeName: '失败任务查询',
      scopePath: '/api/blade-system/jobs/**',
      scopeType: 1,
    });
    const operator = await signInWithScopes(t, { account: 'jobsop', codes: [] });
    await grantScope('jobsop', '000000', scopeId);
    expect((await failedPage(operator)).statusCode).toBe(200);

    // ...but never to a tenant's user, even one whose role holds it.
    await t.as(platformAdmin, {
      method: 'POST',
      url: '/api/blade-system/tenant/submit',
      payload: { tenantId: '100001', tenantName: '租户A', linkman: 'ops' },
    });
    const password = (await readParam(t.ctx.db, 'tenant.default.password')) as string;
    const tenantAdmin = (await t.signIn('admin', password, '100001')).access_token;
    expect((await failedPage(tenantAdmin)).statusCode).toBe(403);
    const tenantOperator = await signInWithScopes(t, { tenantId: '100001', account: 'jobst', codes: [] });
    await grantScope('jobst', '100001', scopeId);
    const res = await failedPage(tenantOperator);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('printer-1');
  });
});

/** Grants the role of `account` one API scope by id, as the role-grant screen would. */
async function grantScope(account: string, tenantId: string, scopeId: string): Promise<void> {
  const [row] = await t.ctx.db
    .select({ roleId: user.roleId })
    .from(user)
    .where(and(eq(user.account, account), eq(user.tenantId, tenantId)));
  if (!row?.roleId) throw new Error(`no role for ${account}`);
  await t.ctx.db
    .insert(roleScope)
    .values({ id: nextId(), scopeCategory: ScopeCategory.API, scopeId, roleId: row.roleId });
  await t.ctx.grants.changed();
}

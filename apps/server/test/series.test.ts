import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogResource, formatDateTime } from '@mes/contracts';
import { apiLog, param } from '../src/platform/db/schema';
import { nextId } from '../src/platform/db/ids';
import { listPartitions, nextPeriod, partitionName, periodStart } from '../src/platform/series/partitions';
import { signInAsProvisionedTenant } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Append-only series (docs/series.md) through the API log: partitions made ahead and dropped
 * whole for retention, the bounded default range, keyset paging, estimated totals, tenancy.
 */
let t: TestApp;
let admin: string;
let adminA: string;

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

interface Page {
  records: { id: string; tenantId: string; requestUri: string }[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

async function list(query: string, token = admin): Promise<{ status: number; page: Page; msg: string }> {
  const res = await t.as(token, { method: 'GET', url: `/api/blade-log/api/list?${query}` });
  const body = res.json<{ data: Page; msg: string }>();
  return { status: res.statusCode, page: body.data, msg: body.msg };
}

const exists = async (relation: string) =>
  (await t.ctx.db.execute<{ r: string | null }>(sql`select to_regclass(${relation})::text as r`)).rows[0]?.r !== null;

async function setRetention(days: string) {
  await t.ctx.db.update(param).set({ paramValue: days }).where(eq(param.paramKey, 'log.retentionDays'));
}

/** API-log rows of one marker URI, at the given times. */
async function insertAt(uri: string, times: Date[], tenantId = '000000') {
  const rows = times.map((createTime) => ({ id: nextId(), tenantId, createTime, requestUri: uri }));
  if (rows.length) await t.ctx.db.insert(apiLog).values(rows);
  return rows;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  adminA = await signInAsProvisionedTenant(t, admin, '100001', '租户A');
});
afterAll(() => t.close());

describe('partitions', () => {
  it('start at UTC midnight, weeks on Monday, months on the 1st', () => {
    const tuesday = new Date('2026-11-24T23:30:00Z');
    expect(periodStart(tuesday, 'day').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(periodStart(tuesday, 'week').toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(periodStart(new Date('2026-11-29T10:00:00Z'), 'week').toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(periodStart(tuesday, 'month').toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(nextPeriod(new Date('2026-12-01T00:00:00Z'), 'month').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(partitionName('blade_log_api', periodStart(tuesday, 'day'))).toBe('blade_log_api_p20261124');
  });

  it('stores every log in a table partitioned by create_time, with partitions ahead after upkeep', async () => {
    const partitioned = await t.ctx.db.execute<{ name: string }>(
      sql`select c.relname as name from pg_partitioned_table p join pg_class c on c.oid = p.partrelid order by 1`,
    );
    expect(partitioned.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'blade_log_api',
        'blade_log_error',
        'blade_log_login',
        'blade_log_operation',
        'blade_log_usual',
      ]),
    );
    await t.ctx.logs.prune();
    const now = new Date(t.clock.now());
    const names = (await listPartitions(t.ctx.db, 'blade_log_api')).map((p) => p.name);
    for (let d = 0; d <= 7; d++)
      expect(names).toContain(partitionName('blade_log_api', periodStart(new Date(now.getTime() + d * DAY), 'day')));
    const weekly = (await listPartitions(t.ctx.db, 'blade_log_login')).map((p) => p.name);
    expect(weekly).toContain(partitionName('blade_log_login', periodStart(new Date(now.getTime() + 14 * DAY), 'week')));
    expect(await exists('blade_log_api_default')).toBe(true);
  });

  it('drops the whole partition of rows older than the retention and keeps newer rows', async () => {
    // A run the durable `log.prune` job may have in flight reads the retention once, and `prune()`
    // joins a run in flight: let it finish before the rows and the setting of this case exist.
    await t.ctx.logs.prune();
    const now = t.clock.now();
    const [old] = await insertAt('/series-retention', [new Date(now - 95 * DAY)]);
    const [recent] = await insertAt('/series-retention', [new Date(now - 10 * DAY)]);
    const oldPartition = partitionName('blade_log_api', periodStart(new Date(now - 95 * DAY), 'day'));
    try {
      // Within a 100-day retention the rows the default partition caught get partitions of their own.
      await setRetention('100');
      const kept = await t.ctx.logs.prune();
      expect(kept.created).toContain(oldPartition);
      expect(await exists(oldPartition)).toBe(true);
      const inDefault = await t.ctx.db.execute(
        sql`select 1 from blade_log_api_default where request_uri = '/series-retention'`,
      );
      expect(inDefault.rows).toHaveLength(0);

      await setRetention('90');
      const pruned = await t.ctx.logs.prune();
      expect(pruned.dropped).toContain(oldPartition);
      expect(await exists(oldPartition)).toBe(false);
      const left = await t.ctx.db
        .select({ id: apiLog.id })
        .from(apiLog)
        .where(eq(apiLog.requestUri, '/series-retention'));
      expect(left.map((r) => r.id)).toEqual([recent?.id]);
      expect(left.map((r) => r.id)).not.toContain(old?.id);
    } finally {
      await setRetention('90');
    }
  });

  it('never fails an insert outside the partitions: the default partition takes it', async () => {
    const far = new Date(t.clock.now() + 400 * DAY);
    await insertAt('/series-far-future', [far]);
    const inDefault = await t.ctx.db.execute(
      sql`select 1 from blade_log_api_default where request_uri = '/series-far-future'`,
    );
    expect(inDefault.rows).toHaveLength(1);
  });
});

describe('bounded range', () => {
  it('shows the last 24 hours unless the query names a range', async () => {
    const now = t.clock.now();
    await insertAt('/series-two-days', [new Date(now - 2 * DAY)]);
    await insertAt('/series-two-days', [new Date(now - HOUR)]);
    const defaulted = await list('requestUri=/series-two-days');
    expect(defaulted.status).toBe(200);
    expect(defaulted.page.records).toHaveLength(1);
    expect(defaulted.page.total).toBe(1);
    const from = encodeURIComponent(formatDateTime(new Date(now - 3 * DAY)));
    const wider = await list(`requestUri=/series-two-days&createTime_dategt=${from}`);
    expect(wider.page.records).toHaveLength(2);
    expect(wider.page.total).toBe(2);
    // An upper bound alone reads the day before it.
    const to = encodeURIComponent(formatDateTime(new Date(now - 2 * DAY + HOUR)));
    const before = await list(`requestUri=/series-two-days&createTime_datelt=${to}`);
    expect(before.page.records).toHaveLength(1);
  });

  it('refuses malformed and inverted ranges with 400', async () => {
    const bad = await list('createTime_dategt=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('createTime_dategt');
    const inverted = await list('createTime_dategt=2026-11-20 00:00:00&createTime_datelt=2026-11-10 00:00:00');
    expect(inverted.status).toBe(400);
    expect(inverted.msg).toContain('开始时间不能晚于结束时间');
  });
});

describe('keyset paging', () => {
  it('gives pages 1..n the rows OFFSET would, in order', async () => {
    const now = t.clock.now();
    // Pairs of rows share a time, so the id decides between them.
    const times = Array.from({ length: 23 }, (_, i) => new Date(now - HOUR + Math.floor(i / 2) * 1000));
    await insertAt('/series-keyset', times);
    const expected = await t.ctx.db.execute<{ id: string }>(
      sql`select id::text as id from blade_log_api where request_uri = '/series-keyset'
          order by create_time desc, id`,
    );
    const ids = expected.rows.map((r) => r.id);
    const seen: string[] = [];
    for (let current = 1; current <= 3; current++) {
      const { page } = await list(`requestUri=/series-keyset&size=10&current=${current}`);
      expect(page.records.map((r) => r.id)).toEqual(ids.slice((current - 1) * 10, current * 10));
      expect(page).toMatchObject({ total: 23, size: 10, current, pages: 3 });
      seen.push(...page.records.map((r) => r.id));
    }
    expect(seen).toEqual(ids);
  });

  it('neither repeats nor skips rows when rows are appended between page requests', async () => {
    const now = t.clock.now();
    const times = Array.from({ length: 30 }, (_, i) => new Date(now - 2 * HOUR + i * 1000));
    await insertAt('/series-append', times);
    const expected = (
      await t.ctx.db.execute<{ id: string }>(
        sql`select id::text as id from blade_log_api where request_uri = '/series-append'
            order by create_time desc, id`,
      )
    ).rows.map((r) => r.id);
    const seen: string[] = [];
    for (let current = 1; current <= 3; current++) {
      const { page } = await list(`requestUri=/series-append&size=10&current=${current}`);
      seen.push(...page.records.map((r) => r.id));
      // Newer rows arrive while the reader is on this page; OFFSET would show its last rows again.
      await insertAt('/series-append', [new Date(t.clock.now()), new Date(t.clock.now())]);
    }
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(30);
  });

  it('serves a page jumped to cold, and a client sort, by offset', async () => {
    const { page } = await list('requestUri=/series-keyset&size=5&current=4');
    const expected = await t.ctx.db.execute<{ id: string }>(
      sql`select id::text as id from blade_log_api where request_uri = '/series-keyset'
          order by create_time desc, id offset 15 limit 5`,
    );
    expect(page.records.map((r) => r.id)).toEqual(expected.rows.map((r) => r.id));
    const sorted = await list('requestUri=/series-keyset&size=5&current=2&ascs=time');
    expect(sorted.status).toBe(200);
    expect(sorted.page.records).toHaveLength(5);
  });
});

describe('totals', () => {
  it('answers the planner’s estimate when a count would visit more rows than the bound, else counts', async () => {
    const series = apiLogResource.series;
    if (!series) throw new Error('the API log is a series');
    const saved = series.estimateAbove;
    // A small bound keeps the test's table small; the rule is the same at 100,000.
    (series as { estimateAbove?: number }).estimateAbove = 1000;
    try {
      // Anti-correlated columns: status 299 and POST are each common, together rare, so the
      // planner (which multiplies their selectivities) expects far more rows than there are.
      // The 50 rows of status 297 lie five hours back, apart from the others.
      await t.ctx.db.execute(sql`
        insert into blade_log_api (id, tenant_id, create_time, request_uri, status, method)
        select 9000000000000000000 + g, '000000',
               case when g <= 6100 then now() - (g % 3600) * interval '1 second'
                    else now() - interval '5 hours' - (g - 6100) * interval '1 second' end,
               '/series-bulk',
               case when g <= 3000 then 299 when g <= 6000 then 298 when g <= 6100 then 299 else 297 end,
               case when g <= 3000 then 'GET' when g <= 6000 then 'POST' when g <= 6100 then 'POST' else 'PUT' end
        from generate_series(1, 6150) g`);
      await t.ctx.db.execute(sql`analyze blade_log_api`);
      const estimated = await list('requestUri=/series-bulk&status=299&method=POST&size=5');
      expect(estimated.status).toBe(200);
      // 100 rows match; the planner's figure is what a list over more than 1000 rows answers.
      expect(estimated.page.total).toBeGreaterThan(1000);
      expect(estimated.page.records).toHaveLength(5);
      // The same filters where the range holds fewer rows than the bound: counted exactly.
      const now = t.clock.now();
      const range = (from: number, to: number) =>
        `createTime_dategt=${encodeURIComponent(formatDateTime(new Date(now - from)))}` +
        `&createTime_datelt=${encodeURIComponent(formatDateTime(new Date(now - to)))}`;
      const exact = await list(`requestUri=/series-bulk&status=297&size=5&${range(6 * HOUR, 4 * HOUR)}`);
      expect(exact.page.total).toBe(50);
      expect(exact.page.pages).toBe(10);
    } finally {
      (series as { estimateAbove?: number }).estimateAbove = saved;
      await t.ctx.db.delete(apiLog).where(eq(apiLog.requestUri, '/series-bulk'));
    }
  });
});

describe('tenancy', () => {
  it('shows a tenant administrator only the tenant’s series rows, the platform every tenant’s', async () => {
    const at = new Date(t.clock.now() - HOUR);
    await insertAt('/series-tenancy', [at, at], '100001');
    await insertAt('/series-tenancy', [at], '000000');
    const mine = await list('requestUri=/series-tenancy', adminA);
    expect(mine.status).toBe(200);
    expect(mine.page.records.map((r) => r.tenantId)).toEqual(['100001', '100001']);
    expect(mine.page.total).toBe(2);
    // A tenant's `tenantId` names nothing more than its own rows.
    const other = await list('requestUri=/series-tenancy&tenantId=000000', adminA);
    expect(other.page.records.every((r) => r.tenantId === '100001')).toBe(true);
    const all = await list('requestUri=/series-tenancy');
    expect(all.page.total).toBe(3);
    const detail = await t.as(adminA, {
      method: 'GET',
      url: `/api/blade-log/api/detail?id=${all.page.records.find((r) => r.tenantId === '000000')?.id ?? ''}`,
    });
    expect(detail.statusCode).toBe(404);
  });
});

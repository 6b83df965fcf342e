/**
 * `npm run bench:series` (`node --import tsx bench/series-bench.ts`): list pages of a series table
 * of 10 million rows (docs/series.md), measured in one run:
 *
 * - page 1 of a tenant's list and of the platform's list (every tenant) in the default range,
 *   the last 24 hours;
 * - a deep page: OFFSET against the keyset seek the engine uses for page n+1 (engine/series/series-page.ts);
 * - a filtered page (status) in the same range;
 * - totals: the exact `count(*)` against the planner's estimate (EXPLAIN), which the engine
 *   answers above `estimateAbove` (100,000), with the estimate's error;
 * - a detail by id alone (every partition's primary key probed) and with a time hint.
 *
 * The table is the API log as migration 0008 builds it (partitioned by day), in a scratch database
 * on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres), created and
 * dropped by the bench. Rows: 4 tenants round-robin over the last 30 days, BENCH_SERIES_ROWS
 * (default 10,000,000). Each figure is the median of BENCH_SERIES_REPS runs (default 5) after one
 * warm-up; ratios come from the same run.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { applyMigrations, connectDatabase } from '../apps/server/src/platform/db/database';
import { ensurePartition, periodStart, seriesTableOf } from '../apps/server/src/platform/series/partitions';
import { apiLogResource } from '../packages/contracts/src/definitions/log/api-log';

const BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_SERIES_ROWS ?? 10_000_000);
const REPS = Number(process.env.BENCH_SERIES_REPS ?? 5);
const DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const PAGE = 10;

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  await run();
  const times: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < REPS; i++) {
    const start = performance.now();
    value = await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, value: value as T };
}

const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const row = (label: string, ms: number, extra = '') =>
  console.log(`${label.padEnd(58)} ${fmt(ms).padStart(11)}  ${extra}`);

async function main() {
  const name = `series_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const database = connectDatabase(withDb(BASE_URL, name), 4);
  const started = performance.now();
  try {
    await applyMigrations(database);
    const { pool, db } = database;
    const now = new Date();
    const table = seriesTableOf(apiLogResource);
    for (let d = DAYS; d >= -1; d--)
      await ensurePartition(db, table, periodStart(new Date(now.getTime() - d * DAY_MS), 'day'));

    // Secondary indexes are built after the fill: several times faster than keeping them up.
    await pool.query('drop index blade_log_api_tenant_time_idx, blade_log_api_time_idx');
    const perDay = Math.ceil(ROWS / DAYS);
    const fillStart = performance.now();
    for (let d = 0; d < DAYS; d++) {
      const first = d * perDay + 1;
      const last = Math.min(ROWS, (d + 1) * perDay);
      await pool.query(
        `insert into blade_log_api (id, tenant_id, create_time, request_uri, method, status, time, create_by)
         select 1000000000000000000 + g,
                (array['000000','100001','100002','100003'])[1 + g % 4],
                $1::timestamptz - ((g - $2) * (86400000.0 / $4)) * interval '1 millisecond',
                '/api/blade-system/user/page', 'GET',
                case when g % 97 = 0 then 500 else 200 end, (g % 250)::int, 'admin'
         from generate_series($2::bigint, $3::bigint) g`,
        [new Date(now.getTime() - d * DAY_MS), first, last, perDay],
      );
      if ((d + 1) % 10 === 0) console.log(`filled ${last.toLocaleString('en')} rows`);
    }
    await pool.query('create index blade_log_api_tenant_time_idx on blade_log_api (tenant_id, create_time)');
    await pool.query('create index blade_log_api_time_idx on blade_log_api (create_time)');
    await pool.query('analyze blade_log_api');
    console.log(
      `${ROWS.toLocaleString('en')} rows, ${DAYS + 2} day partitions, filled and indexed in ${((performance.now() - fillStart) / 1000).toFixed(0)} s\n`,
    );

    const from24h = new Date(now.getTime() - DAY_MS);
    const from7d = new Date(now.getTime() - 7 * DAY_MS);
    const tenant = '100001';
    const cols = 'id, tenant_id, create_time, request_uri, method, status, time, create_by';
    const q = (text: string, values: unknown[]) => pool.query(text, values);

    const tenantPage1 = await timed(() =>
      q(
        `select ${cols} from blade_log_api where tenant_id = $1 and create_time >= $2 order by create_time desc, id limit ${PAGE}`,
        [tenant, from24h],
      ),
    );
    row('page 1, one tenant, last 24 h', tenantPage1.ms, `${tenantPage1.value.rowCount} rows`);
    const platformPage1 = await timed(() =>
      q(`select ${cols} from blade_log_api where create_time >= $1 order by create_time desc, id limit ${PAGE}`, [
        from24h,
      ]),
    );
    row('page 1, every tenant (platform), last 24 h', platformPage1.ms, `${platformPage1.value.rowCount} rows`);
    // What the generic engine orders a list across tenants by: grouped by tenant first.
    const groupedPage1 = await timed(() =>
      q(
        `select ${cols} from blade_log_api where create_time >= $1 order by tenant_id, create_time desc, id limit ${PAGE}`,
        [from24h],
      ),
    );
    row(
      'page 1, every tenant grouped by tenant (generic order)',
      groupedPage1.ms,
      `${groupedPage1.value.rowCount} rows`,
    );

    // A tenant has a quarter of a day's rows in the last 24 h; the deep page stays inside them.
    const deep = Math.max(2, Math.min(5000, Math.floor(ROWS / DAYS / 4 / PAGE) - 1));
    const offset = await timed(() =>
      q(
        `select ${cols} from blade_log_api where tenant_id = $1 and create_time >= $2 order by create_time desc, id limit ${PAGE} offset ${(deep - 1) * PAGE}`,
        [tenant, from24h],
      ),
    );
    const prev = (
      await q(
        `select create_time, id from blade_log_api where tenant_id = $1 and create_time >= $2 order by create_time desc, id limit 1 offset ${(deep - 1) * PAGE - 1}`,
        [tenant, from24h],
      )
    ).rows[0] as { create_time: Date; id: string };
    const keyset = await timed(() =>
      q(
        `select ${cols} from blade_log_api where tenant_id = $1 and create_time >= $2
           and create_time <= $3 and (create_time < $3 or (create_time = $3 and id > $4))
         order by create_time desc, id limit ${PAGE}`,
        [tenant, from24h, prev.create_time, prev.id],
      ),
    );
    const same =
      JSON.stringify(offset.value.rows.map((r: { id: string }) => r.id)) ===
      JSON.stringify(keyset.value.rows.map((r: { id: string }) => r.id));
    row(`page ${deep} by OFFSET ${(deep - 1) * PAGE}`, offset.ms, `${offset.value.rowCount} rows`);
    row(`page ${deep} by keyset (seek from page ${deep - 1})`, keyset.ms, `same rows: ${same}`);

    const filtered = await timed(() =>
      q(
        `select ${cols} from blade_log_api where tenant_id = $1 and create_time >= $2 and status = $3 order by create_time desc, id limit ${PAGE}`,
        [tenant, from24h, 500],
      ),
    );
    row('filtered page (status = 500), one tenant, last 24 h', filtered.ms, `${filtered.value.rowCount} rows`);

    // [label, the list's conditions, the range-and-tenant part a count visits, values]
    const totals: [string, string, string, unknown[]][] = [
      ['one tenant, last 24 h', 'tenant_id = $1 and create_time >= $2', '', [tenant, from24h]],
      ['every tenant, last 24 h', 'create_time >= $1', '', [from24h]],
      ['every tenant, last 7 days', 'create_time >= $1', '', [from7d]],
      [
        'one tenant, status = 500, last 7 days',
        'tenant_id = $1 and create_time >= $2 and status = 500',
        'tenant_id = $1 and create_time >= $2',
        [tenant, from7d],
      ],
    ];
    const explainRows = async (where: string, values: unknown[]) => {
      const plan = await q(`explain (format json) select 1 from blade_log_api where ${where}`, values);
      return Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows'] as number);
    };
    console.log('');
    for (const [label, where, scanned, values] of totals) {
      const exact = await timed(async () =>
        Number((await q(`select count(*) as n from blade_log_api where ${where}`, values)).rows[0].n),
      );
      const estimate = await timed(() => explainRows(where, values));
      const visits = await explainRows(scanned || where, values);
      const error = ((estimate.value - exact.value) / exact.value) * 100;
      const used = visits > 100_000 ? 'estimate' : 'exact';
      row(`exact total, ${label}`, exact.ms, `${exact.value.toLocaleString('en')} rows`);
      row(
        `estimated total, ${label}`,
        estimate.ms,
        `${estimate.value.toLocaleString('en')} rows (${error >= 0 ? '+' : ''}${error.toFixed(1)} %), ` +
          `${(exact.ms / estimate.ms).toFixed(0)}× faster; a count visits ~${visits.toLocaleString('en')}: engine answers ${used}`,
      );
    }

    const someId = (
      await q(`select id, create_time from blade_log_api where tenant_id = $1 and create_time >= $2 limit 1`, [
        tenant,
        from7d,
      ])
    ).rows[0] as {
      id: string;
      create_time: Date;
    };
    const byId = await timed(() => q(`select ${cols} from blade_log_api where id = $1`, [someId.id]));
    const hinted = await timed(() =>
      q(`select ${cols} from blade_log_api where id = $1 and create_time = $2`, [someId.id, someId.create_time]),
    );
    console.log('');
    row(`detail by id alone (${DAYS + 2} partitions probed)`, byId.ms, `${byId.value.rowCount} row`);
    row('detail by id with its time (one partition)', hinted.ms, `${hinted.value.rowCount} row`);

    console.log('\nratios (same run):');
    console.log(`  deep page, OFFSET / keyset:                     ${(offset.ms / keyset.ms).toFixed(1)}×`);
    console.log(`  detail, id alone / id + time:                   ${(byId.ms / hinted.ms).toFixed(1)}×`);
    console.log(
      `  platform page 1, tenant-grouped / newest first: ${(groupedPage1.ms / platformPage1.ms).toFixed(1)}×`,
    );
  } finally {
    await database.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    console.log(`\ntotal run ${((performance.now() - started) / 1000).toFixed(0)} s (scratch database dropped)`);
  }
}

await main();

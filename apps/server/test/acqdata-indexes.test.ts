import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededTestDatabase } from './support/test-database';

/**
 * Migration 0037 dropped mes_acqdata's two indexes that lead with a time (each cost ingestion ~1
 * µs of PostgreSQL's CPU a message). The reads they served still read an index, bounded by their
 * time range: the platform's lists across tenants (acquisition data by collected time, the MQTT
 * message list by received time) by skip scan of the tenant-led indexes, then a sort of the
 * range's rows; a tenant's lists by a backward scan with no sort; the points-estimate sample by the
 * primary key. Plans of the shapes those reads send, on 3 tenants' rows over 4 days.
 */

let pool: pg.Pool;
let drop: () => Promise<void>;

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: PlanNode[] };

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

async function plan(sql: string, params: unknown[]): Promise<PlanNode[]> {
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${sql}`, params);
  return nodes(rows[0]!['QUERY PLAN'][0].Plan);
}

/** The scans of mes_acqdata's partitions in a plan: which kind, and by which index (a bitmap's below it). */
const acqScans = (all: PlanNode[]) =>
  all
    .filter((n) => n['Relation Name']?.startsWith('mes_acqdata'))
    .map((n) => ({
      type: n['Node Type'],
      relation: n['Relation Name']!,
      index: [n, ...nodes(n).slice(1)].map((c) => c['Index Name'] ?? '').join(' '),
    }));

const DAY = 86_400_000;
let start: Date;

beforeAll(async () => {
  const database = await createSeededTestDatabase();
  drop = database.drop;
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // The migration made day partitions from today on: 4 days of 3 tenants, 20,000 rows a day,
  // received a second after they were collected.
  start = new Date(Math.floor(Date.now() / DAY) * DAY);
  await pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol, receive_time)
     select g, '00000' || (g % 3), 'dev' || (g % 40), $1::timestamptz + g * interval '4320 ms',
            jsonb_build_object('t', g % 100), 't', 'json', $1::timestamptz + g * interval '4320 ms' + interval '1 s'
       from generate_series(1, 80000) g`,
    [start],
  );
  await pool.query('analyze mes_acqdata');
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await drop?.();
});

describe('mes_acqdata reads without the time-led indexes (migration 0037)', () => {
  it('has no index leading with a time any more', async () => {
    const { rows } = await pool.query<{ indexname: string }>(
      `select indexname from pg_indexes where tablename = 'mes_acqdata' order by indexname`,
    );
    expect(rows.map((r) => r.indexname)).toEqual([
      'mes_acqdata_device_time_idx',
      'mes_acqdata_pkey',
      'mes_acqdata_tenant_receive_idx',
      'mes_acqdata_tenant_time_idx',
    ]);
  });

  it('reads a page across tenants by collected time from the tenant-led index, within the range', async () => {
    const from = new Date(start.getTime() + DAY + 3_600_000);
    const to = new Date(from.getTime() + 3_600_000);
    const scans = acqScans(
      await plan(
        `select id from mes_acqdata where collect_time >= $1 and collect_time <= $2
          order by collect_time desc, id desc limit 10`,
        [from, to],
      ),
    );
    // One partition (the range's day), read by the index over its range: no sequential scan.
    expect(scans).toHaveLength(1);
    expect(scans[0]!.type).toMatch(/Index|Bitmap/);
    expect(scans[0]!.index).toMatch(/tenant_id_collect_time|device_code_collect_time/);
    // And the page is the newest rows of every tenant.
    const page = await pool.query<{ tenant_id: string; collect_time: Date }>(
      `select tenant_id, collect_time from mes_acqdata where collect_time >= $1 and collect_time <= $2
        order by collect_time desc, id desc limit 10`,
      [from, to],
    );
    expect(new Set(page.rows.map((r) => r.tenant_id)).size).toBe(3);
    expect(page.rows[0]!.collect_time.getTime()).toBeLessThanOrEqual(to.getTime());
    expect(page.rows[0]!.collect_time.getTime()).toBeGreaterThan(to.getTime() - 5_000);
  });

  it('reads the MQTT message list across tenants by received time from the tenant-led index', async () => {
    const from = new Date(start.getTime() + 2 * DAY + 3_600_000);
    const to = new Date(from.getTime() + 3_600_000);
    const scans = acqScans(
      await plan(
        `select id from mes_mqtt_message where create_time >= $1 and create_time <= $2
          order by create_time desc, id desc limit 10`,
        [from, to],
      ),
    );
    // Received time is not the partition key: every partition is probed, each holding rows by its
    // index (a partition of a row or none is read whole: cheaper).
    const { rows } = await pool.query<{ relname: string; n: number }>(
      `select relname, reltuples::float8 as n from pg_class where relname like 'mes_acqdata_%'`,
    );
    const sizes = new Map(rows.map((r) => [r.relname, r.n]));
    expect(scans.filter((s) => (sizes.get(s.relation) ?? 0) > 1000)).toHaveLength(4);
    for (const scan of scans.filter((s) => (sizes.get(s.relation) ?? 0) > 1000)) {
      expect(scan.type, scan.relation).toMatch(/Index|Bitmap/);
      expect(scan.index, scan.relation).toMatch(/tenant_id_receive_time/);
    }
  });

  it("reads a tenant's pages by a backward index scan with no sort", async () => {
    const from = new Date(start.getTime() + DAY);
    const to = new Date(from.getTime() + DAY - 1);
    const acq = await plan(
      `select id from mes_acqdata where tenant_id = $1 and collect_time >= $2 and collect_time <= $3
        order by collect_time desc, id desc limit 10`,
      ['000001', from, to],
    );
    expect(acqScans(acq).map((s) => s.index)).toEqual([expect.stringMatching(/tenant_id_collect_time/)]);
    const mqtt = await plan(
      `select id from mes_mqtt_message where tenant_id = $1 and create_time >= $2 and create_time <= $3
        order by create_time desc, id desc limit 10`,
      ['000001', from, to],
    );
    for (const scan of acqScans(mqtt)) expect(scan.index).toMatch(/tenant_id_receive_time/);
    expect(mqtt.some((n) => n['Node Type'] === 'Sort' && n.Plans?.some((p) => acqScans([p]).length))).toBe(false);
  });

  it('samples the newest rows for the points estimate by the primary key', async () => {
    const scans = acqScans(await plan(`select data_values from mes_acqdata order by id desc limit $1`, [1000]));
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) expect(scan.index, scan.relation).toMatch(/pkey/);
  });
});

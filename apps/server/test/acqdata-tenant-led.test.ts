import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsEstimateScale } from '../src/modules/device/points-estimate';
import { signInAsProvisionedTenant } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Migration 0037 dropped mes_acqdata's two indexes that lead with a time (`collect_time`,
 * `receive_time, id`): each cost ingestion ~1 µs of PostgreSQL's CPU a message. Every list of
 * these rows is one tenant's — the platform administrator's too, since acquisition data, IoT
 * data and MQTT messages do not set `platformSeesAllTenants` — and reads the tenant-led indexes;
 * the points-estimate sample reads the primary key. Here: the three lists page (keyset and
 * offset) exactly as a plain ORDER BY over the whole table orders the caller's rows, for the
 * platform and for a tenant, on rows of three tenants.
 */
let t: TestApp;
let admin: string;
let adminA: string;

const HOUR = 3_600_000;
const TENANTS = ['000000', '100001', '100002'];
/** Rows a tenant gets in the last day; a few more a day and a half old, outside the default range. */
const ROWS = 240;
const OLD_ROWS = 10;

interface Page {
  records: { id: string; tenantId: string }[];
  total: number;
  pages: number;
}

/** The three lists over mes_acqdata and its views, with the SQL that orders a caller's rows as each must. */
const LISTS = [
  {
    name: 'acquisition data',
    url: '/api/report/acqdata/list',
    oracle: `select id::text from mes_acqdata where tenant_id = $1 and collect_time >= $2
              order by collect_time desc, id asc`,
  },
  {
    name: 'IoT data (mes_telemetry)',
    url: '/api/blade-business/iot/page',
    oracle: `select id::text from mes_telemetry where tenant_id = $1 and ts >= $2 order by ts desc, id asc`,
  },
  {
    name: 'MQTT messages (mes_mqtt_message)',
    url: '/api/blade-business/mqtt/page',
    oracle: `select id::text from mes_mqtt_message where tenant_id = $1 and create_time >= $2
              order by create_time desc, id desc`,
  },
] as const;

async function page(url: string, token: string, current: number, size: number): Promise<Page> {
  const res = await t.as(token, { method: 'GET', url: `${url}?current=${current}&size=${size}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Page }>().data;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  // Provisioned as the platform administrator provisions a tenant; the test signs in as 100001's admin.
  const tokens = new Map<string, string>();
  for (const tenantId of TENANTS.slice(1))
    tokens.set(tenantId, await signInAsProvisionedTenant(t, admin, tenantId, `租户${tenantId}`));
  adminA = tokens.get('100001')!;

  // Rows of the three tenants interleaved in time, three rows sharing each collected time and
  // pairs sharing a received time (so the id decides ties), ids not in time order; 2 values a row.
  const now = t.clock.now();
  await t.database.pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol, receive_time)
     select 7000000000000000000 + ((g * 7919) % 100000) * 4, ($2::varchar[])[1 + g % 3], 'D' || (g % 5),
            $1::timestamptz - (g / 3) * interval '3 min' - interval '1 hour',
            jsonb_build_object('a', g, 'b', g % 7), 't/' || g, 'json',
            $1::timestamptz - (g / 2) * interval '2 min' - interval '1 hour'
       from generate_series(0, $3::int - 1) g`,
    [new Date(now), TENANTS, ROWS * TENANTS.length],
  );
  await t.database.pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol, receive_time)
     select 6000000000000000000 + g * 4, ($2::varchar[])[1 + g % 3], 'D0', $1::timestamptz - interval '36 hours' - g * interval '1 min',
            jsonb_build_object('a', g, 'b', 1), 't/old', 'json', $1::timestamptz - interval '36 hours'
       from generate_series(0, $3::int - 1) g`,
    [new Date(now), TENANTS, OLD_ROWS * TENANTS.length],
  );
  // The MQTT message list is a union with the message log's own rows.
  await t.database.pool.query(
    `insert into mes_mqtt_log (id, topic, client_id, qos, retain, direction, payload, device_code, parsed_ok, error, create_time, tenant_id)
     select 5000000000000000000 + g, 'log/' || g, 'c', 0, false, 0, 'x', 'D1', false, 'bad', $1::timestamptz - g * interval '5 min', ($2::varchar[])[1 + g % 3]
       from generate_series(0, 59) g`,
    [new Date(now), TENANTS],
  );
  await t.database.pool.query('analyze mes_acqdata');
  await t.database.pool.query('analyze mes_mqtt_log');
}, 120_000);
afterAll(() => t.close());

describe('mes_acqdata without the time-led indexes', () => {
  it('keeps only the tenant-led indexes and the primary key', async () => {
    const { rows } = await t.database.pool.query<{ indexname: string }>(
      `select indexname from pg_indexes where tablename = 'mes_acqdata' order by indexname`,
    );
    expect(rows.map((r) => r.indexname)).toEqual([
      'mes_acqdata_device_time_idx',
      'mes_acqdata_pkey',
      'mes_acqdata_tenant_receive_idx',
      'mes_acqdata_tenant_time_idx',
    ]);
  });

  for (const list of LISTS) {
    for (const [who, tenantId] of [
      ['the platform administrator', '000000'],
      ['a tenant administrator', '100001'],
    ] as const) {
      it(`${list.name}: ${who}'s pages are the tenant's rows in the plain order, by keyset and by offset`, async () => {
        const token = tenantId === '000000' ? admin : adminA;
        const from = new Date(t.clock.now() - 24 * HOUR);
        const { rows } = await t.database.pool.query<{ id: string }>(list.oracle, [tenantId, from]);
        const expected = rows.map((r) => r.id);
        expect(expected.length).toBeGreaterThan(ROWS - 1);

        // Page after page: each one seeks from the previous page's last row.
        const size = 25;
        const seen: string[] = [];
        let first: Page | undefined;
        for (let current = 1; current <= Math.ceil(expected.length / size) + 1; current++) {
          const p = await page(list.url, token, current, size);
          first ??= p;
          // The platform's list is its own tenant's: were it to span tenants, the reads would need
          // a time-led index back or a per-tenant merge (docs/ingest-performance.md).
          expect(p.records.every((r) => r.tenantId === tenantId)).toBe(true);
          seen.push(...p.records.map((r) => r.id));
        }
        expect(seen).toEqual(expected);
        expect(first?.total).toBe(expected.length);

        // A cold jump (no remembered page before it at this size) skips by offset to the same rows.
        const jump = await page(list.url, token, 4, 17);
        expect(jump.records.map((r) => r.id)).toEqual(expected.slice(3 * 17, 4 * 17));
      });
    }
  }

  it('measures the points-estimate factor on the newest rows without a time index', async () => {
    // Every seeded message holds 2 values; jsonb_each is declared at 100 rows a call.
    expect(await pointsEstimateScale(t.ctx)()).toBeCloseTo(2 / 100, 6);
  });
});

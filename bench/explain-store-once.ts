/**
 * `node --import tsx bench/explain-store-once.ts`: the plans of the series pages over the views
 * of "Stored once" (docs/mqtt.md): `iot/page` and the MQTT message list newest first, and their
 * estimated totals, on a scratch database (DATABASE_URL's server) holding BENCH_MESSAGES (200,000)
 * messages of 3 values over two days. Prints the plans and the estimates against the counts.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { applyMigrations, connectDatabase } from '../apps/server/src/platform/db/database';

const BASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200_000);

async function main() {
  const name = `explain_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  const database = connectDatabase(url.toString());
  try {
    await applyMigrations(database);
    const pool = database.pool;
    const now = Date.now();
    await pool.query(
      `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol, client_id, qos, retain, receive_time)
       select g * 4, '000000', 'D-' || (g % 20), $1::timestamptz - (g * $2::float8) * interval '1 millisecond',
              jsonb_build_object('temp', g % 100, 'level', (g % 7) / 3.0, 'phase', 'wash'), 'mes/000000/D/telemetry', 'json',
              'c', 1, false, $1::timestamptz - (g * $2::float8) * interval '1 millisecond'
       from generate_series(1, $3::bigint) g`,
      [new Date(now), (2 * 86_400_000) / MESSAGES, MESSAGES],
    );
    await pool.query('vacuum (analyze) mes_acqdata');
    const since = new Date(now - 86_400_000);
    const show = async (title: string, text: string, params: unknown[]) => {
      const plan = await pool.query(`explain (analyze, costs off, timing off, summary on) ${text}`, params);
      console.log(`\n${title}\n${plan.rows.map((r: Record<string, string>) => Object.values(r)[0]).join('\n')}`);
    };
    await show(
      'iot/page, newest first, page 1 (the engine: ts desc, id)',
      `select * from mes_telemetry where tenant_id = $1 and ts >= $2 order by ts desc, id asc limit 10`,
      ['000000', since],
    );
    await show(
      'iot/page of one device and field',
      `select * from mes_telemetry where tenant_id = $1 and device_code = $3 and field = $4 and ts >= $2 order by ts desc, id asc limit 10`,
      ['000000', since, 'D-3', 'temp'],
    );
    await show(
      'mqtt/page, newest first, page 1',
      `select * from mes_mqtt_message where tenant_id = $1 and create_time >= $2 order by create_time desc, id desc limit 10`,
      ['000000', since],
    );
    for (const [what, table, column] of [
      ['iot points', 'mes_telemetry', 'ts'],
      ['mqtt messages', 'mes_mqtt_message', 'create_time'],
    ] as const) {
      const plan = await pool.query(
        `explain (format json) select 1 from ${table} where tenant_id = $1 and ${column} >= $2`,
        ['000000', since],
      );
      const estimate = (plan.rows[0] as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] })['QUERY PLAN'][0]!.Plan[
        'Plan Rows'
      ];
      const counted = await pool.query(
        `select count(*)::int as n from ${table} where tenant_id = $1 and ${column} >= $2`,
        ['000000', since],
      );
      console.log(`${what} in the last day: estimate ${estimate}, count ${(counted.rows[0] as { n: number }).n}`);
    }
  } finally {
    await database.close();
    await admin.query(`drop database ${name} with (force)`);
    await admin.end();
  }
}

void main();

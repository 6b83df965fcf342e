import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/test-database';

/**
 * Migration `store_once` (docs/mqtt.md "Stored once") on a database holding the old layout:
 * `mes_telemetry` a table of points, `mes_mqtt_message` a table of every message. Every point
 * and every logged message reads the same afterwards, through the views that replace them.
 */
const drizzleDir = path.join(import.meta.dirname, '..', 'drizzle');
const STORE_ONCE = /_store_once$/;

interface Journal {
  entries: { idx: number; tag: string }[];
}

/** A copy of the migrations folder that ends before `store_once`: the old layout. */
function oldLayoutFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-old-layout-'));
  fs.cpSync(drizzleDir, dir, { recursive: true });
  const file = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(file, 'utf8')) as Journal;
  const cut = journal.entries.findIndex((e) => STORE_ONCE.test(e.tag));
  if (cut < 0) throw new Error('no store_once migration in the journal');
  fs.writeFileSync(file, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return dir;
}

let database: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;
let oldDir: string;
const rows = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await pool.query(text, values)).rows as T[];

const HOUR = 3_600_000;
const now = Date.now();
/** Today's partition (0010 made it), and three days ago: no partition, the default holds it. */
const today = new Date(now - 60_000);
const earlier = new Date(now - 3 * 24 * HOUR);

const POINTS = `select tenant_id, device_code, field, ts, num_value::text as num, text_value as text
  from mes_telemetry order by tenant_id, device_code, field, ts, num_value, text_value`;
// As the message list reads it: always within a time range (a report stored before the migration
// has an acquisition row without a receive time, which no range includes).
const MESSAGES = `select id::text, tenant_id, topic, client_id, qos, retain, direction, payload, device_code, parsed_ok, error, create_time
  from mes_mqtt_message where create_time > '-infinity' order by create_time, id`;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  oldDir = oldLayoutFolder();
  await migrate(drizzle(pool), { migrationsFolder: oldDir });
  // A report stored the old way: its acquisition row (the value as a double), its points (exact)
  // and its log row.
  await pool.query(
    `insert into mes_acqdata (id, tenant_id, device_code, collect_time, data_values, topic, protocol, seq)
     values (5000, '000000', 'D1', $1, '{"temp": 20.5, "mode": "auto", "big": 1234567890123.1235}', 'mes/000000/D1/telemetry', 'json', 7)`,
    [today],
  );
  await pool.query(
    `insert into mes_telemetry (id, tenant_id, device_code, field, ts, num_value, text_value, quality) values
       (6000, '000000', 'D1', 'temp', $1, 20.5, null, 0),
       (6001, '000000', 'D1', 'mode', $1, null, 'auto', 0),
       (6002, '000000', 'D1', 'big', $1, 1234567890123.123456, null, 0),
       -- before acquisition data existed: no acquisition row; twice the same field at one time
       (6100, '000000', 'D1', 'temp', $2, 19, null, 0),
       (6101, '000000', 'D1', 'temp', $2, 19.25, null, 0),
       (6102, '000000', 'D1', 'mode', $2, null, 'manual', 0),
       (6200, '100001', 'D2', 'temp', $2, -4.5, null, 0),
       -- a Sparkplug metric timed otherwise than its payload: a point without its own report row
       (6300, '000000', 'D1', 'temp', $3, 21, null, 0)`,
    [today, earlier, new Date(today.getTime() - 1000)],
  );
  await pool.query(
    `insert into mes_mqtt_message (id, tenant_id, topic, client_id, qos, retain, payload, device_code, parsed_ok, error, create_time) values
       (7000, '000000', 'mes/000000/D1/telemetry', 'c-D1', 1, false, '{"temp":20.5,"mode":"auto","ts":1,"seq":7}', 'D1', true, null, $1),
       (7001, '000000', 'mes/000000/D1/status', 'c-D1', 1, true, 'online', 'D1', true, null, $1),
       (7002, '000000', 'mes/000000/D9/telemetry', 'c-D9', 0, false, '{}', 'D9', false, 'unknown device', $2)`,
    [today, earlier],
  );
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
  if (oldDir) fs.rmSync(oldDir, { recursive: true, force: true });
});

describe('migration store_once on the old layout', () => {
  it('carries every point and every logged message over unchanged, and stores each report once', async () => {
    const pointsBefore = await rows(POINTS);
    const messagesBefore = await rows(MESSAGES);
    expect(pointsBefore).toHaveLength(8);

    await migrate(drizzle(pool), { migrationsFolder: drizzleDir });

    const kinds = await rows<{ relname: string; relkind: string }>(
      `select relname, relkind::text from pg_class
        where relname in ('mes_telemetry', 'mes_mqtt_message', 'mes_mqtt_log') order by relname`,
    );
    expect(kinds).toEqual([
      { relname: 'mes_mqtt_log', relkind: 'p' },
      { relname: 'mes_mqtt_message', relkind: 'v' },
      { relname: 'mes_telemetry', relkind: 'v' },
    ]);
    // The same points, exact values included (the double of the old acquisition row gave way).
    expect(await rows(POINTS)).toEqual(pointsBefore);
    // The logged messages are kept, none twice: old reports' acquisition rows carry no receive time.
    expect(await rows(MESSAGES)).toEqual(messagesBefore);
    // One acquisition row per report: the old report's row is not repeated for its points.
    const reports = await rows<{ device_code: string; collect_time: Date; n: number }>(
      `select device_code, collect_time, count(*)::int as n from mes_acqdata group by 1, 2 order by 1, 2`,
    );
    expect(reports.map((r) => [r.device_code, r.collect_time.getTime(), r.n])).toEqual([
      ['D1', earlier.getTime(), 2],
      ['D1', today.getTime() - 1000, 1],
      ['D1', today.getTime(), 1],
      ['D2', earlier.getTime(), 1],
    ]);
    // Point ids are unique, and a point's detail finds it.
    const ids = await rows<{ id: string }>(`select id::text from mes_telemetry`);
    expect(new Set(ids.map((r) => r.id)).size).toBe(ids.length);
  });

  it('leaves the message log partitioned under its new name, for the upkeep to keep', async () => {
    const parts = await rows<{ relname: string }>(
      `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        where p.relname = 'mes_mqtt_log' order by 1`,
    );
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => p.relname.startsWith('mes_mqtt_log_'))).toBe(true);
    expect(parts.map((p) => p.relname)).toContain('mes_mqtt_log_default');
    expect(await rows(`select 1 from pg_class where relkind = 'r' and relname like 'mes_mqtt_message_p%'`)).toEqual([]);
  });
});

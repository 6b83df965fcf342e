import { get as sparkplugNamespace } from 'sparkplug-payload';
import { describe, expect, it } from 'vitest';
import { sleep, until } from '../support/ports';
import type { FaultStack } from '../support/stack';
import { note, tally } from '../support/tally';

/**
 * Issue 26, point 4: one bad message never stops ingestion. Each class of poison is published by
 * a device of its own among good traffic from other devices: the good ones are still acknowledged
 * and stored within a few seconds, and the poison is visible on the MQTT message screen (its API)
 * as a dead letter with its reason.
 */

const spB = sparkplugNamespace('spBv1.0')!;

interface Poison {
  name: string;
  /** Sparkplug: the device is an edge node of a sparkplug-b product. */
  sparkplug?: boolean;
  topic(code: string): string;
  payload(): string | Buffer;
}

const POISONS: Poison[] = [
  {
    name: 'NUL in a field name',
    topic: (code) => `mes/000000/${code}/telemetry`,
    payload: () => JSON.stringify({ ts: Date.now(), values: { 'a\u0000b': 1 } }),
  },
  {
    name: 'lone surrogate in a text',
    topic: (code) => `mes/000000/${code}/telemetry`,
    payload: () => JSON.stringify({ ts: Date.now(), values: { label: 'ok\ud800' } }),
  },
  {
    name: 'Sparkplug metric name with NUL',
    sparkplug: true,
    topic: (code) => `spBv1.0/000000/NBIRTH/${code}`,
    payload: () =>
      Buffer.from(
        spB.encodePayload({
          timestamp: Date.now(),
          seq: 0,
          metrics: [
            { name: 'bdSeq', type: 'UInt64', value: 0 },
            { name: 'n\u0000x', alias: 1, type: 'Double', value: 1 },
          ],
        }),
      ),
  },
  {
    // A text PostgreSQL refuses (NUL is not allowed in text): passes the model check, fails the insert.
    name: 'a value PostgreSQL refuses (NUL in a text value)',
    topic: (code) => `mes/000000/${code}/telemetry`,
    payload: () => JSON.stringify({ ts: Date.now(), values: { label: 'a\u0000b' } }),
  },
];

const GOOD = 4;

export function poisonCases(s: FaultStack): void {
  const broker = s.broker;
  describe(`poison messages among good traffic (${s.broker} broker)`, () => {
    it.each(POISONS)(
      '$name: good devices acknowledged and stored within seconds, the poison a dead letter with its reason',
      async (poison) => {
        // Today a poison message is retried forever (through Mosquitto redelivered to the next server
        // as well): after a case that stalled, the next starts from a reset server and broker.
        await s.revive();
        const crashMark = s.server.crashes.length;
        const fleet = await s.fleet(`G${POISONS.indexOf(poison)}`, GOOD);
        fleet.start();
        await sleep(2000);
        const [bad] = await s.api.registerDevices(
          `${s.tag}X${POISONS.indexOf(poison)}`,
          1,
          poison.sparkplug ? { protocol: 'sparkplug-b' } : {},
        );
        const device = s.device(bad!, { reconnect: false });
        await device.connect();
        const topic = poison.topic(bad!.code);
        const poisonAck = device.publish(poison.payload(), topic);
        // From now on every good device must keep being stored (acknowledged, on the embedded broker)
        // within a few seconds: counted in PostgreSQL, as Mosquitto acknowledges before the console.
        const storedPerDevice = async () => {
          const { rows } = await s.pool.query<{ device_code: string; n: number }>(
            `select device_code, count(*)::int as n from mes_acqdata where device_code = any($1) group by 1`,
            [fleet.devices.map((d) => d.code)],
          );
          return fleet.devices.map((d) => rows.find((r) => r.device_code === d.code)?.n ?? 0);
        };
        const before = await storedPerDevice();
        const since = Date.now();
        let progressedMs = -1;
        await until(
          async () => (await storedPerDevice()).every((n, i) => n > (before[i] ?? 0) + 5),
          10_000,
          'every good device stored again after the poison',
          200,
        )
          .then(() => {
            progressedMs = Date.now() - since;
          })
          .catch(() => undefined);
        await sleep(2000);
        const stuck = await fleet.finish(progressedMs < 0 ? 3000 : 10_000);
        s.dirty = progressedMs < 0 || stuck.length > 0;
        const t = await tally(
          s.pool,
          { case: `poison: ${poison.name}`, broker },
          fleet.devices,
          s.dirty ? 3000 : 10_000,
        );
        const poisonAcked = await Promise.race([poisonAck, sleep(3000).then(() => 'no PUBACK')]);
        // The poison through the MQTT message API (the screen's list), found by its topic: refused at
        // parsing (the offending field named in `error`) or, if it got past the checks and failed the
        // batch, a dead letter (`error` = `dead letter (死信): …`, docs/mqtt.md "Retry or dead letter").
        const page = await s.api
          .data<{ records: Record<string, unknown>[] }>(
            'GET',
            `/blade-business/mqtt/page?current=1&size=20&topic=${encodeURIComponent(topic)}`,
          )
          .catch((e: Error) => ({ records: [], error: e.message }));
        const letters = page.records.filter((r) => r.topic === topic);
        // Refused whole (not parsed) or in part (the offending field named): either way with its reason.
        const letter = letters.find((r) => String(r.error ?? '').length > 0);
        // The poison's own values never reach the telemetry (nor a silently changed copy of them).
        const { rows: poisonCount } = await s.pool.query<{ n: number }>(
          `select count(*)::int as n from mes_telemetry where device_code = $1`,
          [bad!.code],
        );
        const poisonRows = poisonCount[0]?.n ?? 0;
        note(
          `poison: ${poison.name}`,
          broker,
          `good devices stored again after ${progressedMs < 0 ? 'never (10 s)' : `${progressedMs} ms`} | good devices with unacknowledged numbers ${stuck.length} | poison PUBACK ${String(poisonAcked)} | message rows for the poison ${letters.length} (${letters.map((r) => `parsedOk ${String(r.parsedOk)}, error "${String(r.error ?? '')}"`).join('; ')}), dead letter ${letter ? 'yes' : 'none'} | telemetry rows of the poison ${poisonRows} | crashes ${s.server.crashes.length - crashMark}`,
        );
        await device.close();
        expect(progressedMs).toBeGreaterThanOrEqual(0);
        expect(stuck.map((d) => `${d.code}: ${d.unacknowledged}`)).toEqual([]);
        expect(t.lost).toBe(0);
        expect(t.duplicated).toBe(0);
        expect(letter, JSON.stringify(letters)).toBeDefined();
        expect(poisonRows).toBe(0);
      },
    );
  });
}

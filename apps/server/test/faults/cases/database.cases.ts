import { describe, expect, it } from 'vitest';
import { QUICK, sleep, until } from '../support/ports';
import type { FaultStack } from '../support/stack';
import { note, tally } from '../support/tally';

/**
 * Issue 26, points 1–3: a database blip never kills the server, nothing acknowledged is dropped
 * during an outage, and every device's window drains as soon as the database is back. The server
 * reaches PostgreSQL only through a TcpFaultProxy, so the suite can cut it off.
 */

const DEVICES = 6;
const CJK = /[\u4e00-\u9fff]/;

export function databaseCases(s: FaultStack): void {
  const broker = s.broker;
  describe(`PostgreSQL faults under device load (${s.broker} broker)`, () => {
    it('connections terminated every 2 s: the process stays up, health recovers, nothing acknowledged is lost or doubled', async () => {
      await s.revive();
      const crashMark = s.server.crashes.length;
      const fleet = await s.fleet('T', DEVICES);
      fleet.start();
      const rounds = QUICK ? 6 : 15;
      let terminated = 0;
      for (let round = 0; round < rounds; round += 1) {
        await sleep(2000);
        // Alternately the proxy's drop of every connection and a real pg_terminate_backend round.
        if (round % 2 === 0) s.proxy.terminate();
        else terminated += await s.terminateBackends().catch(() => 0);
      }
      if (s.server.running)
        await until(async () => (await s.server.health()) === 200, 30_000, 'health 200 after the rounds').catch(
          () => undefined,
        );
      const health = await s.server.health();
      // A dead server acknowledges nothing more: no point waiting for the windows then.
      const stuck = await fleet.finish(s.server.running ? 30_000 : 3000);
      const crashed = s.server.crashes.length - crashMark;
      const t = await tally(s.pool, { case: `terminate every 2 s ×${rounds}`, broker }, fleet.devices);
      note(
        'terminate every 2 s',
        broker,
        `backends terminated ${terminated} | server crashes ${crashed} | health after ${health} | devices with unacknowledged numbers ${stuck.length}`,
      );
      expect(crashed, s.server.crashReport(crashMark)).toBe(0);
      expect(health).toBe(200);
      expect(stuck.map((d) => d.code)).toEqual([]);
      expect(t.lost).toBe(0);
      expect(t.duplicated).toBe(0);
      expect(t.acknowledged).toBeGreaterThan(0);
    });

    it(`database stopped ${QUICK ? 5 : 30} s: 503 in the caller's language during, 200 after without a restart, every window drains within seconds`, async () => {
      await s.revive();
      const crashMark = s.server.crashes.length;
      const fleet = await s.fleet('S', DEVICES);
      fleet.start();
      await sleep(3000);
      const outageMs = QUICK ? 5000 : 30_000;
      const down = Date.now();
      await s.proxy.stop();
      // Health says so while PostgreSQL is unreachable.
      let healthDuring = 0;
      await until(
        async () => {
          healthDuring = await s.server.health();
          return healthDuring === 503;
        },
        Math.max(outageMs - 1000, 3000),
        'health 503 during the outage',
      ).catch(() => undefined);
      // A signed-in call during the outage: a clear 503, in Chinese by default and in English when asked.
      const zh = await s.api
        .call('GET', '/basic/device/list?current=1&size=10', undefined, undefined, 10_000)
        .catch((e: Error) => ({ status: 0, body: { msg: e.message }, text: e.message }));
      const en = await s.api
        .call('GET', '/basic/device/list?current=1&size=10', undefined, 'en', 10_000)
        .catch((e: Error) => ({ status: 0, body: { msg: e.message }, text: e.message }));
      await sleep(Math.max(0, outageMs - (Date.now() - down)));
      await s.proxy.start();
      const back = Date.now();
      let healthAfter = 0;
      if (s.server.running)
        await until(
          async () => {
            healthAfter = await s.server.health();
            return healthAfter === 200;
          },
          30_000,
          'health 200 after the outage',
        ).catch(() => undefined);
      const healthyAfterMs = Date.now() - back;
      // Devices keep streaming a few seconds, then every window must drain within seconds.
      await sleep(3000);
      const stuck = await fleet.finish(s.server.running ? (QUICK ? 10_000 : 15_000) : 3000);
      const drainedAfterMs = Date.now() - back;
      const t = await tally(s.pool, { case: `database stopped ${outageMs / 1000} s`, broker }, fleet.devices);
      note(
        `database stopped ${outageMs / 1000} s`,
        broker,
        `health during ${healthDuring}, after ${healthAfter} (${healthyAfterMs} ms) | call during: zh ${zh.status} "${String(zh.body.msg)}", en ${en.status} "${String(en.body.msg)}" | crashes ${s.server.crashes.length - crashMark} | devices with unacknowledged numbers ${stuck.length} (${drainedAfterMs} ms after the database returned)`,
      );
      expect(s.server.crashes.length - crashMark, s.server.crashReport(crashMark)).toBe(0);
      expect(healthDuring).toBe(503);
      expect(healthAfter).toBe(200);
      expect(zh.status).toBe(503);
      expect(String(zh.body.msg)).toMatch(CJK);
      expect(en.status).toBe(503);
      expect(String(en.body.msg)).not.toMatch(CJK);
      expect(String(en.body.msg)).toMatch(/[A-Za-z]{3}/);
      expect(stuck.map((d) => `${d.code}: ${d.unacknowledged}`)).toEqual([]);
      expect(t.lost).toBe(0);
      expect(t.duplicated).toBe(0);
    });
  });
}

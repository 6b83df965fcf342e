import { describe, expect, it } from 'vitest';
import { sleep } from '../support/ports';
import type { FaultStack } from '../support/stack';
import { note, tally } from '../support/tally';

/**
 * Issue 26, point 7: a server stopped mid-stream (kill -9, or SIGTERM and its graceful stop) and
 * started again (the embedded broker on the same port) loses nothing acknowledged and stores
 * nothing twice: the devices reconnect and resend what was not acknowledged, and a redelivery of a
 * message already committed is recognised.
 */

const DEVICES = 6;

export function restartCases(s: FaultStack): void {
  const broker = s.broker;
  describe(`the server stopped mid-stream and restarted (${s.broker} broker)`, () => {
    it.each(['SIGKILL', 'SIGTERM'] as const)('%s: 0 lost, 0 duplicated', async (signal) => {
      await s.revive();
      const fleet = await s.fleet(signal === 'SIGKILL' ? 'K' : 'G', DEVICES, { perSecond: 40 });
      fleet.start();
      await sleep(4000);
      const down = Date.now();
      await s.server.kill(signal);
      const stoppedMs = Date.now() - down;
      await s.server.start();
      const restartedMs = Date.now() - down;
      await sleep(4000);
      const stuck = await fleet.finish(30_000);
      const t = await tally(s.pool, { case: `${signal} mid-stream`, broker }, fleet.devices);
      note(
        `${signal} mid-stream`,
        broker,
        `stopped in ${stoppedMs} ms, healthy again ${restartedMs} ms after the signal | device reconnects ${fleet.devices.reduce((n, d) => n + d.closes, 0)} | devices with unacknowledged numbers ${stuck.length}`,
      );
      expect(stuck.map((d) => `${d.code}: ${d.unacknowledged}`)).toEqual([]);
      expect(t.lost).toBe(0);
      expect(t.duplicated).toBe(0);
      expect(t.acknowledged).toBe(t.sent);
    });
  });
}

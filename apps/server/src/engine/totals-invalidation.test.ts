import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_TENANTS, rowsTopic } from '../platform/cache/row-changes';
import { TotalsInvalidation, totalsTopics } from './totals-invalidation';

/** A publish that records its topics; `failing` makes the next calls reject. */
function recorder() {
  const topics: string[] = [];
  const state = { failing: false };
  const publish = (topic: string) => {
    if (state.failing) return Promise.reject(new Error('database away'));
    topics.push(topic);
    return Promise.resolve();
  };
  return { topics, state, publish };
}

const rows = (tenantId: string, n: number) => Array.from({ length: n }, () => ({ tenantId }));

describe('TotalsInvalidation', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('publishes each resource and tenant written by 2,000 messages once (9 topics), with the list spanning every tenant', async () => {
    const { topics, publish } = recorder();
    const totals = new TotalsInvalidation({ publish, intervalMs: 1000 });
    for (let i = 0; i < 1000; i++) totals.written({ iot: rows('t1', 3), acqdata: rows('t1', 1), mqtt: rows('t1', 1) });
    for (let i = 0; i < 1000; i++)
      totals.written({ iot: rows('t2', 3), acqdata: rows('t2', 1), mqtt: rows('t2', 1), onoff: [] });
    expect(topics).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(topics.sort()).toEqual(
      [
        rowsTopic('iot', 't1'),
        rowsTopic('iot', 't2'),
        rowsTopic('iot', ALL_TENANTS),
        rowsTopic('acqdata', 't1'),
        rowsTopic('acqdata', 't2'),
        rowsTopic('acqdata', ALL_TENANTS),
        rowsTopic('mqtt', 't1'),
        rowsTopic('mqtt', 't2'),
        rowsTopic('mqtt', ALL_TENANTS),
      ].sort(),
    );
  });

  it('notes every tenant of a batch whose rows interleave tenants', async () => {
    const { topics, publish } = recorder();
    const totals = new TotalsInvalidation({ publish });
    totals.written({ mqtt: [{ tenantId: 'a' }, { tenantId: 'a' }, { tenantId: 'b' }, { tenantId: 'a' }] });
    await vi.advanceTimersByTimeAsync(0);
    expect(topics).toEqual([rowsTopic('mqtt', 'a'), rowsTopic('mqtt', 'b'), rowsTopic('mqtt', ALL_TENANTS)]);
  });

  it('publishes a pair at most once per interval: later writes wait for the interval’s end', async () => {
    const { topics, publish } = recorder();
    const totals = new TotalsInvalidation({ publish, intervalMs: 1000 });
    totals.changed('iot', 't1');
    await vi.advanceTimersByTimeAsync(0);
    expect(topics).toHaveLength(2);
    for (let ms = 0; ms < 900; ms += 100) {
      totals.changed('iot', 't1');
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(topics).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(topics).toEqual([
      rowsTopic('iot', 't1'),
      rowsTopic('iot', ALL_TENANTS),
      rowsTopic('iot', 't1'),
      rowsTopic('iot', ALL_TENANTS),
    ]);
    // Quiet since: the next write goes out at once.
    await vi.advanceTimersByTimeAsync(5000);
    totals.changed('mqtt', 't1');
    await vi.advanceTimersByTimeAsync(0);
    expect(topics.slice(4)).toEqual([rowsTopic('mqtt', 't1'), rowsTopic('mqtt', ALL_TENANTS)]);
  });

  it('publishes what is pending on close, without waiting for the interval, and nothing after', async () => {
    const { topics, publish } = recorder();
    const totals = new TotalsInvalidation({ publish, intervalMs: 60_000 });
    totals.changed('iot', 't1');
    await vi.advanceTimersByTimeAsync(0);
    totals.written({ acqdata: rows('t1', 5) });
    await totals.close();
    expect(topics).toEqual([
      rowsTopic('iot', 't1'),
      rowsTopic('iot', ALL_TENANTS),
      rowsTopic('acqdata', 't1'),
      rowsTopic('acqdata', ALL_TENANTS),
    ]);
    totals.changed('mqtt', 't1');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(topics).toHaveLength(4);
  });

  it('tries a failed publish again in the next round, and warns once', async () => {
    const { topics, state, publish } = recorder();
    const warnings: string[] = [];
    const totals = new TotalsInvalidation({ publish, intervalMs: 1000, warn: (m) => void warnings.push(m) });
    state.failing = true;
    totals.changed('iot', 't1');
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(topics).toEqual([]);
    expect(warnings).toHaveLength(1);
    state.failing = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(topics).toEqual([rowsTopic('iot', 't1'), rowsTopic('iot', ALL_TENANTS)]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(topics).toHaveLength(2);
  });

  it('sends one NOTIFY at a time, so a round holds at most one pooled connection', async () => {
    let open = 0;
    let most = 0;
    const sent: string[] = [];
    const totals = new TotalsInvalidation({
      publish: async (topic) => {
        most = Math.max(most, ++open);
        await new Promise((r) => setTimeout(r, 5));
        sent.push(topic);
        open--;
      },
    });
    totals.written({ iot: rows('t1', 2), acqdata: rows('t2', 1), mqtt: rows('t3', 1) });
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(6);
    expect(most).toBe(1);
  });

  it('names the list spanning every tenant once, and not for rows shared by all tenants', () => {
    expect(totalsTopics('user', ['a', 'b'])).toEqual([
      rowsTopic('user', 'a'),
      rowsTopic('user', 'b'),
      rowsTopic('user', ALL_TENANTS),
    ]);
    expect(totalsTopics('error_log', ['*'])).toEqual([rowsTopic('error_log', '*')]);
    expect(totalsTopics('user', [ALL_TENANTS])).toEqual([rowsTopic('user', ALL_TENANTS)]);
  });
});

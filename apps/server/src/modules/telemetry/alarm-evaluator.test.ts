import { describe, expect, it } from 'vitest';
import {
  evaluateSamples,
  newDeviceState,
  recoverState,
  type AlarmRule,
  type RuleSet,
  type Sample,
} from './alarm-evaluator';

const T0 = Date.UTC(2026, 10, 24, 4);
const s = (field: string, seconds: number, value: number): Sample => ({ field, ts: T0 + seconds * 1000, value });

const rules = (list: AlarmRule[], targets: [number, number][] = []): RuleSet => {
  const byField = new Map<string, AlarmRule[]>();
  for (const r of list) byField.set(r.field, [...(byField.get(r.field) ?? []), r]);
  return { byField, targets: new Map(targets) };
};

const hot: AlarmRule = {
  key: 'threshold:1',
  type: 'threshold',
  field: 'temp',
  level: 2,
  holdMs: 30_000,
  operator: '>',
  threshold: 100,
};

describe('threshold rules', () => {
  it('raise once the condition has held for the hold time, once, and clear when it ends', () => {
    const set = rules([hot]);
    const state = newDeviceState();
    const out = evaluateSamples(set, state, [
      s('temp', 0, 101),
      s('temp', 10, 102),
      s('temp', 29, 103),
      s('temp', 30, 104),
      s('temp', 40, 105),
      s('temp', 50, 99),
    ]);
    expect(out.map((t) => [t.kind, (t.at - T0) / 1000, t.value, t.threshold])).toEqual([
      ['raise', 30, 104, 100],
      ['clear', 50, 99, 100],
    ]);
  });

  it('start the hold again after a sample that breaks it', () => {
    const state = newDeviceState();
    const out = evaluateSamples(rules([hot]), state, [
      s('temp', 0, 101),
      s('temp', 20, 100),
      s('temp', 25, 101),
      s('temp', 50, 101),
    ]);
    expect(out).toEqual([]);
    expect(state.rules.get('threshold:1')?.pendingSince).toBe(T0 + 25_000);
    expect(evaluateSamples(rules([hot]), state, [s('temp', 55, 101)]).map((t) => t.kind)).toEqual(['raise']);
  });

  it('skip a sample older than the last one of its field', () => {
    const state = newDeviceState();
    evaluateSamples(rules([hot]), state, [s('temp', 0, 101), s('temp', 40, 101)]);
    expect(evaluateSamples(rules([hot]), state, [s('temp', 20, 50)])).toEqual([]);
    expect(state.rules.get('threshold:1')?.active).toBe(true);
  });

  it('compare with each operator', () => {
    const ops = ['>', '>=', '<', '<=', '==', '!='] as const;
    const fired = ops.map(
      (operator) =>
        evaluateSamples(rules([{ ...hot, holdMs: 0, operator }]), newDeviceState(), [s('temp', 0, 100)]).length,
    );
    expect(fired).toEqual([0, 1, 0, 1, 1, 0]);
  });
});

describe('rate, concentration and limit rules', () => {
  it('rate: change per minute above the threshold, either way', () => {
    const rate: AlarmRule = { key: 'rate:2', type: 'rate', field: 'p', level: 3, holdMs: 0, threshold: 10 };
    const out = evaluateSamples(rules([rate]), newDeviceState(), [
      s('p', 0, 100),
      s('p', 60, 105),
      s('p', 90, 95),
      s('p', 150, 96),
    ]);
    expect(out.map((t) => [t.kind, t.value])).toEqual([
      ['raise', 20],
      ['clear', 1],
    ]);
  });

  it('concentration: below the threshold, or below the running program’s target when it has none', () => {
    const fixed: AlarmRule = {
      key: 'concentration:3',
      type: 'concentration',
      field: 'cl',
      level: 2,
      holdMs: 0,
      threshold: 0.5,
    };
    const program: AlarmRule = { ...fixed, key: 'concentration:4', threshold: null };
    const set = rules([fixed, program], [[2, 50]]);
    const state = newDeviceState();
    // No program known: only the fixed threshold applies.
    expect(evaluateSamples(set, state, [s('cl', 0, 0.4)]).map((t) => t.rule.key)).toEqual(['concentration:3']);
    const out = evaluateSamples(set, state, [
      s('program', 10, 2),
      s('cl', 10, 40),
      s('program', 20, 1),
      s('cl', 20, 40),
    ]);
    expect(out.map((t) => [t.kind, t.rule.key, t.threshold])).toEqual([
      ['clear', 'concentration:3', 0.5],
      ['raise', 'concentration:4', 50],
      // Program 1 has no target: the condition no longer holds.
      ['clear', 'concentration:4', null],
    ]);
  });

  it('limits: H/HH above, L/LL below', () => {
    const limit = (name: 'HH' | 'H' | 'L' | 'LL', threshold: number): AlarmRule => ({
      key: `limit:9:${name}`,
      type: 'limit',
      field: 't',
      level: 2,
      holdMs: 0,
      threshold,
      limit: name,
    });
    const set = rules([limit('HH', 138), limit('H', 137), limit('L', 100), limit('LL', 90)]);
    const state = newDeviceState();
    const keys = (samples: Sample[]) => evaluateSamples(set, state, samples).map((t) => `${t.kind} ${t.rule.limit}`);
    expect(keys([s('t', 0, 137.5)])).toEqual(['raise H']);
    expect(keys([s('t', 1, 139)])).toEqual(['raise HH']);
    expect(keys([s('t', 2, 95)])).toEqual(['clear HH', 'clear H', 'raise L']);
    expect(keys([s('t', 3, 80)])).toEqual(['raise LL']);
  });
});

describe('recovery after a restart', () => {
  it('continues a hold that began before the restart instead of starting it again', () => {
    const history = [s('temp', 0, 101), s('temp', 10, 102), s('temp', 20, 103)];
    const state = recoverState(rules([hot]), history, new Set(), undefined);
    expect(state.rules.get('threshold:1')?.pendingSince).toBe(T0);
    expect(evaluateSamples(rules([hot]), state, [s('temp', 30, 104)]).map((t) => t.kind)).toEqual(['raise']);
  });

  it('takes an open warning as active: no second raise, and the next good value clears it', () => {
    const history = [s('temp', 0, 101), s('temp', 60, 90)];
    const state = recoverState(rules([hot]), history, new Set(['threshold:1']), undefined);
    expect(state.rules.get('threshold:1')).toEqual({ active: true, pendingSince: undefined });
    expect(evaluateSamples(rules([hot]), state, [s('temp', 70, 120)])).toEqual([]);
    expect(evaluateSamples(rules([hot]), state, [s('temp', 80, 50)]).map((t) => t.kind)).toEqual(['clear']);
  });
});

describe('refill reminders', () => {
  // Low limit 20 %, margin 10: remind below 30, end only above 40.
  const refill: AlarmRule = {
    key: 'refill:1',
    type: 'refill',
    field: 'tankLevel',
    level: 4,
    holdMs: 0,
    threshold: 30,
    clearAbove: 40,
  };

  it('remind once per refill: a level wavering around the reminder point does not remind again', () => {
    const state = newDeviceState();
    const out = evaluateSamples(rules([refill]), state, [
      s('tankLevel', 0, 60),
      s('tankLevel', 10, 29),
      s('tankLevel', 20, 31),
      s('tankLevel', 30, 28),
      s('tankLevel', 40, 39),
      s('tankLevel', 50, 95),
      s('tankLevel', 60, 29.5),
    ]);
    expect(out.map((t) => [t.kind, (t.at - T0) / 1000, t.value, t.threshold])).toEqual([
      ['raise', 10, 29, 30],
      ['clear', 50, 95, 30],
      ['raise', 60, 29.5, 30],
    ]);
  });
});

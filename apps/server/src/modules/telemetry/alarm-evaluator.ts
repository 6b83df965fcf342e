import type { AlarmRuleType } from '@mes/contracts';

/**
 * The alarm rules' decisions, without I/O (docs/warnings.md): given a device's rules, what this
 * process remembers of it (per rule: since when the condition holds, whether a warning is open)
 * and the batch's numeric samples in time order, which warnings to raise and which to clear.
 * alarm-engine.ts feeds it and writes what it answers through alarm-store.ts.
 */

export type AlarmOperator = '>' | '>=' | '<' | '<=' | '==' | '!=';
export type LimitName = 'HH' | 'H' | 'L' | 'LL';

/** One rule as the evaluator applies it: a product alarm rule, or one limit of a PLC variable. */
export interface AlarmRule {
  /** The warning's `ruleKey`: `threshold:<ruleId>`, `limit:<variableId>:HH`, `offline:<ruleId>`, `cycle:<ruleId>`. */
  key: string;
  type: AlarmRuleType;
  /** The model field watched; '' for `offline` and `cycle`. */
  field: string;
  level: number;
  /** How long the condition must hold before the warning is raised (0: at once). */
  holdMs: number;
  /** `threshold`: the comparison. */
  operator?: AlarmOperator;
  /** threshold / rate per minute / concentration minimum / limit value; null: a concentration rule using the program's target. */
  threshold: number | null;
  limit?: LimitName;
  /**
   * `refill`: the level the tank must rise above to end the reminder (low limit + 2 × margin), so
   * a level wavering at the reminder point reminds once per refill, not at every wobble.
   */
  clearAbove?: number;
}

/** What the evaluator needs of a device besides its state. */
export interface RuleSet {
  /** Field rules by field key. */
  byField: ReadonlyMap<string, readonly AlarmRule[]>;
  /** Program no. → target concentration (programs without one are absent). */
  targets: ReadonlyMap<number, number>;
}

export interface RuleState {
  /** Sample time (ms) since which the condition holds without a warning yet; undefined when it does not hold. */
  pendingSince: number | undefined;
  /** A warning of this rule is open and its condition has not ended (status 1 or 2). */
  active: boolean;
}

/** What this process remembers of one device. */
export interface DeviceAlarmState {
  rules: Map<string, RuleState>;
  /** The last sample evaluated per watched field (rate needs the previous one; older samples are skipped). */
  last: Map<string, { ts: number; value: number }>;
  /** The program no. the device reports running (its `program` field). */
  program: number | undefined;
}

export interface Sample {
  field: string;
  ts: number;
  value: number;
}

export interface Transition {
  kind: 'raise' | 'clear';
  rule: AlarmRule;
  /** Sample time of the decision. */
  at: number;
  /** The value that decided (a rate: change per minute). */
  value: number;
  /** The limit the value was compared with. */
  threshold: number | null;
}

/** The field naming the running program (docs/devices.md). */
export const PROGRAM_FIELD = 'program';

export const newDeviceState = (): DeviceAlarmState => ({ rules: new Map(), last: new Map(), program: undefined });

export function compare(value: number, operator: AlarmOperator, threshold: number): boolean {
  switch (operator) {
    case '>':
      return value > threshold;
    case '>=':
      return value >= threshold;
    case '<':
      return value < threshold;
    case '<=':
      return value <= threshold;
    case '==':
      return value === threshold;
    case '!=':
      return value !== threshold;
  }
}

/** Whether the condition holds for this sample, and against what; undefined: it cannot be told (no previous sample). */
export function condition(
  rule: AlarmRule,
  sample: Sample,
  previous: { ts: number; value: number } | undefined,
  rules: RuleSet,
  program: number | undefined,
  active = false,
): { holds: boolean; value: number; threshold: number | null } | undefined {
  const { value } = sample;
  switch (rule.type) {
    case 'threshold':
      return {
        holds: rule.threshold !== null && compare(value, rule.operator ?? '>', rule.threshold),
        value,
        threshold: rule.threshold,
      };
    case 'rate': {
      if (!previous || sample.ts <= previous.ts || rule.threshold === null) return undefined;
      const perMinute = Math.abs(value - previous.value) / ((sample.ts - previous.ts) / 60_000);
      return {
        holds: perMinute > rule.threshold,
        value: Math.round(perMinute * 1000) / 1000,
        threshold: rule.threshold,
      };
    }
    case 'concentration': {
      const minimum = rule.threshold ?? (program === undefined ? undefined : rules.targets.get(program));
      return { holds: minimum !== undefined && value < minimum, value, threshold: minimum ?? null };
    }
    case 'limit': {
      if (rule.threshold === null) return { holds: false, value, threshold: null };
      const high = rule.limit === 'H' || rule.limit === 'HH';
      return { holds: high ? value > rule.threshold : value < rule.threshold, value, threshold: rule.threshold };
    }
    case 'refill': {
      if (rule.threshold === null) return { holds: false, value, threshold: null };
      const until = active ? (rule.clearAbove ?? rule.threshold) : rule.threshold;
      return { holds: value < until, value, threshold: rule.threshold };
    }
    default:
      return undefined;
  }
}

const stateOf = (device: DeviceAlarmState, key: string): RuleState => {
  let state = device.rules.get(key);
  if (!state) {
    state = { pendingSince: undefined, active: false };
    device.rules.set(key, state);
  }
  return state;
};

/**
 * Runs a device's samples (in time order) through its field rules, updating `state`. A condition
 * raises once it has held for the rule's hold time, measured in sample time; while its warning is
 * active nothing more is raised; the first sample where it no longer holds clears it. A sample not
 * newer than the last one evaluated for its field is skipped (a late point does not rewrite history).
 */
export function evaluateSamples(rules: RuleSet, state: DeviceAlarmState, samples: readonly Sample[]): Transition[] {
  const out: Transition[] = [];
  for (const sample of samples) evaluateSample(rules, state, sample, out);
  return out;
}

/**
 * {@link evaluateSamples} for one sample, its transitions added to `out`. The sample is not kept:
 * a caller may pass the same object again with other contents.
 */
export function evaluateSample(rules: RuleSet, state: DeviceAlarmState, sample: Sample, out: Transition[]): void {
  if (sample.field === PROGRAM_FIELD) state.program = sample.value;
  const watching = rules.byField.get(sample.field);
  if (!watching) return;
  const previous = state.last.get(sample.field);
  if (previous && sample.ts < previous.ts) return;
  for (const rule of watching) {
    const ruleState = stateOf(state, rule.key);
    const verdict = condition(rule, sample, previous, rules, state.program, ruleState.active);
    if (!verdict) continue;
    if (verdict.holds) {
      if (ruleState.active) continue;
      ruleState.pendingSince ??= sample.ts;
      if (sample.ts - ruleState.pendingSince >= rule.holdMs) {
        ruleState.active = true;
        ruleState.pendingSince = undefined;
        out.push({ kind: 'raise', rule, at: sample.ts, value: verdict.value, threshold: verdict.threshold });
      }
    } else {
      ruleState.pendingSince = undefined;
      if (ruleState.active) {
        ruleState.active = false;
        out.push({ kind: 'clear', rule, at: sample.ts, value: verdict.value, threshold: verdict.threshold });
      }
    }
  }
  // Updated in place: an object per sample was garbage of every batch (`undo` keeps a deep copy).
  if (previous) {
    previous.ts = sample.ts;
    previous.value = sample.value;
  } else state.last.set(sample.field, { ts: sample.ts, value: sample.value });
}

/**
 * A device's state after a restart: the stored samples of the last hold times replayed for the
 * pending holds and the previous values (their decisions were taken before and are dropped), then
 * `active` as the stored warnings say (`open`: the rule keys with a warning in status 1 or 2).
 */
export function recoverState(
  rules: RuleSet,
  history: readonly Sample[],
  open: ReadonlySet<string>,
  program: number | undefined,
): DeviceAlarmState {
  const state = newDeviceState();
  state.program = program;
  for (const key of open) stateOf(state, key).active = true;
  // Replayed without raising: a hold that began in the history stays pending from its start.
  const holding: RuleSet = {
    targets: rules.targets,
    byField: new Map([...rules.byField].map(([field, list]) => [field, list.map((r) => ({ ...r, holdMs: Infinity }))])),
  };
  evaluateSamples(
    holding,
    state,
    [...history].sort((a, b) => a.ts - b.ts),
  );
  for (const [key, ruleState] of state.rules) {
    ruleState.active = open.has(key);
    if (ruleState.active) ruleState.pendingSince = undefined;
  }
  return state;
}

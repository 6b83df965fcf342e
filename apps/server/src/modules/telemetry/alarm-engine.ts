import type pg from 'pg';
import { CycleResult, type LiveEvent } from '@mes/contracts';
import {
  PROGRAM_FIELD,
  evaluateSample,
  evaluateSamples,
  newDeviceState,
  recoverState,
  type DeviceAlarmState,
  type Sample,
  type Transition,
} from './alarm-evaluator';
import { AlarmRules, deviceKey, type DeviceProfile, type RuleChanges } from './alarm-rules';
import {
  clearOfflineWarnings,
  clearWarning,
  openRuleKeys,
  raiseWarning,
  warningDevice,
  type WarningDevice,
  type WarningInput,
} from './alarm-store';
import type { AcquisitionRow } from './batch-rows';
import type { StoredCycle } from './cycle-store';
import { cycleWarningText, fieldWarningText, shown } from './warning-text';
import { rawRowsOfSameTenant } from '../../platform/tenancy/raw-tenant-rows';

/**
 * The alarm engine in the ingestion path (docs/warnings.md). Before a batch commits, `evaluate`
 * runs the batch's numeric values through each device's rules (alarm-rules.ts, cached) and this
 * process's memory of the device (alarm-evaluator.ts); inside the batch's transaction, `write`
 * stores what that decided, the cycle rules of the cycles just stored and the clearing of offline
 * warnings of devices that came back (alarm-store.ts), and answers the live events.
 *
 * The memory is rebuilt lazily per device the first time a process sees it: the open warnings
 * from `mes_warning`, the pending holds and previous values from the device's stored telemetry of
 * the last hold times. Only devices with field rules cost anything beyond a map lookup per value.
 */

/** How far back a restart replays telemetry at least (the previous value of a rate rule). */
const MIN_HISTORY_MS = 10 * 60_000;
/** Points replayed per field at most. */
const HISTORY_POINTS = 1000;

/** A report of the batch as the rules read it: its device, its time and its stored values. */
type BatchReport = Pick<AcquisitionRow, 'tenantId' | 'deviceCode' | 'collectTime' | 'values'>;

/** Whether a report stored a number (text values are not evaluated). */
function hasNumber(report: BatchReport): boolean {
  for (const field in report.values) if (typeof report.values[field] === 'string') return true;
  return false;
}

/** What `evaluate` decided for a batch, for `write` (possibly run again if the commit is retried). */
export interface AlarmWork {
  transitions: { profile: DeviceProfile; transition: Transition; program: number | undefined }[];
  profiles: ReadonlyMap<string, DeviceProfile | undefined>;
  /** The devices' memory before this evaluation (undefined: none), for `undo` when the batch is not stored. */
  before: Map<string, DeviceAlarmState | undefined>;
}

export interface AlarmEngineOptions {
  pool: pg.Pool;
  warn(message: string, error?: unknown): void;
  now(): number;
  changes?: RuleChanges;
}

export class AlarmEngine {
  readonly rules: AlarmRules;
  private readonly states = new Map<string, DeviceAlarmState>();

  constructor(private readonly options: AlarmEngineOptions) {
    this.rules = new AlarmRules(options.pool, options.changes, options.now);
  }

  /**
   * The warnings the batch's values raise and clear. The devices of the batch's cycles and
   * presence changes are loaded too, for `write`. A failure to read rules or history is logged
   * and the batch goes on without alarms (ingestion never waits on them).
   */
  async evaluate(
    reports: readonly BatchReport[],
    others: Iterable<{ tenantId: string; deviceCode: string }>,
  ): Promise<AlarmWork> {
    const byDevice = new Map<string, BatchReport[]>();
    const devices = new Map<string, { tenantId: string; deviceCode: string }>();
    let lastTenant = '';
    let lastCode = '';
    let list: BatchReport[] | undefined;
    for (const report of reports) {
      if (!hasNumber(report)) continue;
      if (!list || report.tenantId !== lastTenant || report.deviceCode !== lastCode) {
        const key = deviceKey(report.tenantId, report.deviceCode);
        list = byDevice.get(key);
        if (!list) {
          list = [];
          byDevice.set(key, list);
          devices.set(key, report);
        }
        lastTenant = report.tenantId;
        lastCode = report.deviceCode;
      }
      list.push(report);
    }
    for (const d of others) devices.set(deviceKey(d.tenantId, d.deviceCode), d);
    const work: AlarmWork = { transitions: [], profiles: new Map(), before: new Map() };
    if (!devices.size) return work;
    try {
      const profiles = await this.rules.load(devices);
      work.profiles = profiles;
      const watched: { key: string; profile: DeviceProfile; reports: BatchReport[] }[] = [];
      for (const [key, reports] of byDevice) {
        const profile = profiles.get(key);
        if (profile && profile.byField.size) watched.push({ key, profile, reports });
      }
      if (!watched.length) return work;
      await this.recover(watched.filter((w) => !this.states.has(w.key)));
      for (const { key, profile, reports } of watched) {
        const held = this.states.get(key);
        if (!work.before.has(key)) work.before.set(key, held && structuredClone(held));
        const state = held ?? newDeviceState();
        this.states.set(key, state);
        for (const transition of this.evaluateDevice(profile, state, reports))
          work.transitions.push({ profile, transition, program: state.program });
      }
    } catch (error) {
      this.options.warn('MQTT ingestion: alarm rules could not be evaluated for a batch', error);
    }
    return work;
  }

  /**
   * A device's samples of the batch in time order (a sort only when its reports are out of order),
   * the watched numbers only. Reports in order, the usual case, are evaluated as they are read with
   * one sample object reused: no object per watched value kept until the batch is evaluated.
   */
  private evaluateDevice(profile: DeviceProfile, state: DeviceAlarmState, reports: BatchReport[]): Transition[] {
    let inOrder = true;
    for (let i = 1; i < reports.length && inOrder; i++)
      inOrder = reports[i - 1]!.collectTime.getTime() <= reports[i]!.collectTime.getTime();
    const samples: Sample[] = [];
    const out: Transition[] = [];
    const one: Sample = { field: '', ts: 0, value: 0 };
    for (const report of reports) {
      const ts = report.collectTime.getTime();
      for (const field in report.values) {
        const value = report.values[field]!;
        if (typeof value !== 'string' || (!profile.byField.has(field) && field !== PROGRAM_FIELD)) continue;
        if (!inOrder) samples.push({ field, ts, value: Number(value) });
        else {
          one.field = field;
          one.ts = ts;
          one.value = Number(value);
          evaluateSample(profile, state, one, out);
        }
      }
    }
    if (inOrder) return out;
    samples.sort((a, b) => a.ts - b.ts);
    return evaluateSamples(profile, state, samples);
  }

  /**
   * Forgets what `evaluate` did for a batch that was not stored (it is evaluated again, maybe split):
   * each device's memory is put back as it was, so no sample counts twice.
   */
  undo(work: AlarmWork): void {
    for (const [key, state] of work.before) {
      if (state) this.states.set(key, state);
      else this.states.delete(key);
    }
    work.before.clear();
  }

  /** Open warnings and the recent telemetry of devices this process has not evaluated yet. */
  private async recover(fresh: readonly { key: string; profile: DeviceProfile; reports: BatchReport[] }[]) {
    if (!fresh.length) return;
    const pool = this.options.pool;
    const open = new Map<string, Set<string>>();
    for (const row of await openRuleKeys(
      pool,
      fresh.map((f) => f.profile),
    )) {
      const key = deviceKey(row.tenant_id, row.device_code);
      let set = open.get(key);
      if (!set) open.set(key, (set = new Set()));
      set.add(row.rule_key);
    }
    const windows: { tenantId: string; deviceCode: string; field: string; from: Date; to: Date }[] = [];
    for (const { profile, reports } of fresh) {
      let first = Infinity;
      for (const report of reports) first = Math.min(first, report.collectTime.getTime());
      const from = new Date(first - Math.max(MIN_HISTORY_MS, 2 * profile.longestHoldMs));
      for (const field of profile.byField.keys())
        windows.push({ tenantId: profile.tenantId, deviceCode: profile.deviceCode, field, from, to: new Date(first) });
    }
    const { rows: points } = await pool.query<{
      tenant_id: string;
      device_code: string;
      field: string;
      ts: Date;
      num: string;
    }>(
      `select k.tenant_id, k.device_code, k.field, p.ts, p.num_value as num
         from unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::timestamptz[])
           as k(tenant_id, device_code, field, from_ts, to_ts)
         cross join lateral (
           select t.ts, t.num_value from mes_telemetry t
            where t.tenant_id = k.tenant_id and t.device_code = k.device_code and t.field = k.field
              and t.ts >= k.from_ts and t.ts < k.to_ts and t.num_value is not null
            order by t.ts desc limit ${HISTORY_POINTS}) p`,
      [
        windows.map((w) => w.tenantId),
        windows.map((w) => w.deviceCode),
        windows.map((w) => w.field),
        windows.map((w) => w.from),
        windows.map((w) => w.to),
      ],
    );
    const programs = new Map<string, number>();
    const following = fresh.filter((f) => f.profile.followsProgram);
    if (following.length) {
      const { rows } = await pool.query<{ tenant_id: string; device_code: string; num: string }>(
        `select l.tenant_id, l.device_code, l.latest -> $3::text ->> 'v' as num
           from unnest($1::varchar[], $2::varchar[]) as k(tenant_id, device_code)
           join mes_device_latest l on ${rawRowsOfSameTenant('l', 'k.tenant_id')} and l.device_code = k.device_code
          where jsonb_typeof(l.latest -> $3::text -> 'v') = 'number'`,
        [following.map((f) => f.profile.tenantId), following.map((f) => f.profile.deviceCode), PROGRAM_FIELD],
      );
      for (const row of rows) programs.set(deviceKey(row.tenant_id, row.device_code), Number(row.num));
    }
    const history = new Map<string, Sample[]>();
    for (const p of points) {
      const key = deviceKey(p.tenant_id, p.device_code);
      let list = history.get(key);
      if (!list) history.set(key, (list = []));
      list.push({ field: p.field, ts: new Date(p.ts).getTime(), value: Number(p.num) });
    }
    for (const { key, profile } of fresh)
      this.states.set(
        key,
        recoverState(profile, history.get(key) ?? [], open.get(key) ?? new Set(), programs.get(key)),
      );
  }

  /**
   * Inside the batch's transaction: the decided raises and clears, the cycle rules of the cycles
   * just stored (a failed or aborted one raises, a passed one clears), and the end of the offline
   * warnings of devices that came online. Answers the warnings' live events.
   */
  async write(
    client: pg.PoolClient,
    work: AlarmWork,
    cycles: readonly StoredCycle[],
    cameOnline: readonly { tenantId: string; deviceCode: string; at: Date }[],
  ): Promise<LiveEvent[]> {
    const now = new Date(this.options.now());
    const events: LiveEvent[] = [];
    const raise = (profile: DeviceProfile, what: Omit<WarningInput, keyof WarningDevice>) =>
      raiseWarning(client, { ...warningDevice(profile), ...what }, now);
    // Locks are taken per device and rule: in one order across batches, so two cannot deadlock.
    const ordered = [...work.transitions].sort((a, b) =>
      a.transition.rule.key === b.transition.rule.key && a.profile === b.profile
        ? 0
        : `${a.profile.tenantId}\u0000${a.profile.deviceCode}\u0000${a.transition.rule.key}` <
            `${b.profile.tenantId}\u0000${b.profile.deviceCode}\u0000${b.transition.rule.key}`
          ? -1
          : 1,
    );
    for (const { profile, transition, program } of ordered) {
      const at = new Date(transition.at);
      if (transition.kind === 'clear') {
        events.push(...(await clearWarning(client, { ...profile, ruleKey: transition.rule.key }, at, now)));
        continue;
      }
      events.push(
        await raise(profile, {
          ruleKey: transition.rule.key,
          warningType: transition.rule.type,
          level: transition.rule.level,
          field: transition.rule.field,
          triggerValue: shown(transition.value),
          threshold: shown(transition.threshold),
          message: fieldWarningText(profile, transition, program),
          at,
        }),
      );
    }
    for (const cycle of cycles) {
      const profile = work.profiles.get(deviceKey(cycle.tenantId, cycle.deviceCode));
      if (!profile) continue;
      for (const rule of profile.cycle) {
        if (cycle.result === CycleResult.pass) {
          events.push(...(await clearWarning(client, { ...profile, ruleKey: rule.key }, cycle.end, now)));
          continue;
        }
        events.push(
          await raise(profile, {
            ruleKey: rule.key,
            warningType: 'cycle',
            level: rule.level,
            field: '',
            triggerValue: String(cycle.faultCode),
            threshold: '',
            message: cycleWarningText(profile, cycle),
            at: cycle.end,
          }),
        );
      }
    }
    events.push(...(await clearOfflineWarnings(client, cameOnline, now)));
    return events;
  }

  /** This process's memory of a device's rule (tests). */
  stateOf(tenantId: string, deviceCode: string): DeviceAlarmState | undefined {
    return this.states.get(deviceKey(tenantId, deviceCode));
  }
}

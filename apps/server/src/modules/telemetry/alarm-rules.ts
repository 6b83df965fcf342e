import type pg from 'pg';
import {
  ALARM_OPERATORS,
  ALARM_RULE_TYPES,
  deviceResource,
  plcVariableResource,
  productResource,
  type AlarmRuleType,
  type EnumEntry,
} from '@mes/contracts';
import type { AlarmOperator, AlarmRule, LimitName, RuleSet } from './alarm-evaluator';

/**
 * The alarm rules of each device as ingestion evaluates them (docs/warnings.md): its product's
 * alarm rules and the HH/H/L/LL limits of its product's PLC variables, with what the warnings'
 * messages name (device name, field names and units) and the programs' target concentrations.
 * Read from PostgreSQL for all the devices a batch misses in one statement, and cached per
 * device: dropped on every process when a device, product (its rules, fields and programs travel
 * with it) or PLC variable of the tenant is written through the engine (the change feed's
 * `rows:<code>:<tenant>`), and after a minute at most otherwise. Without a listening feed entries
 * live a few seconds only.
 */

/** The change feed as far as the rules need it (platform/cache/change-feed.ts). */
export interface RuleChanges {
  subscribe(listener: (topic: string) => void): void;
  isLive(): boolean;
}

export interface DeviceProfile extends RuleSet {
  tenantId: string;
  deviceCode: string;
  deviceId: string;
  deptId: string | null;
  deviceName: string;
  /** Field key → display name and unit, for the messages. */
  fieldInfo: ReadonlyMap<string, { name: string; unit: string; enumeration: readonly EnumEntry[] | null }>;
  /** Rules that watch the device's connection and its cycles. */
  offline: readonly AlarmRule[];
  cycle: readonly AlarmRule[];
  /** The longest hold of a field rule (ms): how far back a restart looks for pending holds. */
  longestHoldMs: number;
  /** Whether a concentration rule follows the running program's target. */
  followsProgram: boolean;
}

/** Resources whose writes change a profile (their `rows:<code>:<tenant>` notices). */
const WATCHED = new Set([deviceResource.code, productResource.code, plcVariableResource.code]);
const MAX_AGE_MS = 60_000;
const MAX_AGE_UNWATCHED_MS = 5_000;
const MAX_ENTRIES = 50_000;

interface ProfileRow {
  tenant_id: string;
  device_code: string;
  device_id: string;
  dept_id: string | null;
  device_name: string;
  rules: {
    id: string;
    type: string;
    field: string;
    operator: string;
    threshold: number | null;
    duration: number;
    level: number;
  }[];
  limits: {
    id: string;
    name: string;
    hh: number | null;
    h: number | null;
    l: number | null;
    ll: number | null;
    level: number;
  }[];
  fields: { key: string; name: string; unit: string; enumeration: EnumEntry[] | null }[];
  programs: { no: number; target: number | null }[];
}

const PROFILE_SQL = `
  select d.tenant_id, d.device_code, d.id::text as device_id, d.dept_id::text as dept_id, d.device_name,
    coalesce((select json_agg(json_build_object('id', r.id::text, 'type', r.rule_type, 'field', r.field_key,
        'operator', r.operator, 'threshold', r.threshold, 'duration', r.duration_seconds, 'level', r.level) order by r.sort, r.id)
      from mes_product_alarm_rule r
      where r.tenant_id = d.tenant_id and r.product_id = d.product_id and r.is_deleted = 0 and r.status = 1), '[]') as rules,
    coalesce((select json_agg(json_build_object('id', v.id::text, 'name', v.name, 'hh', v.limit_hh, 'h', v.limit_h,
        'l', v.limit_l, 'll', v.limit_ll, 'level', v.limit_level))
      from mes_plc_variable v
      where v.tenant_id = d.tenant_id and v.product_id = d.product_id and v.is_deleted = 0
        and (v.limit_hh is not null or v.limit_h is not null or v.limit_l is not null or v.limit_ll is not null)), '[]') as limits,
    coalesce((select json_agg(json_build_object('key', f.field_key, 'name', f.field_name, 'unit', f.unit,
        'enumeration', f.enumeration))
      from mes_product_field f
      where f.tenant_id = d.tenant_id and f.product_id = d.product_id and f.is_deleted = 0), '[]') as fields,
    coalesce((select json_agg(json_build_object('no', g.program_no, 'target', g.target_concentration))
      from mes_product_program g
      where g.tenant_id = d.tenant_id and g.product_id = d.product_id and g.is_deleted = 0), '[]') as programs
  from unnest($1::varchar[], $2::varchar[]) as k(tenant_id, device_code)
  join mes_device d on d.tenant_id = k.tenant_id and d.device_code = k.device_code and d.is_deleted = 0`;

const isRuleType = (value: string): value is AlarmRuleType => (ALARM_RULE_TYPES as readonly string[]).includes(value);
const isOperator = (value: string): value is AlarmOperator => (ALARM_OPERATORS as readonly string[]).includes(value);
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
/** The level of HH and LL: one more severe than the variable's (1 is the most severe). */
const severer = (level: number) => Math.max(1, level - 1);

/** A stored profile row as the evaluator's rules. */
export function profileOf(row: ProfileRow): DeviceProfile {
  const byField = new Map<string, AlarmRule[]>();
  const offline: AlarmRule[] = [];
  const cycle: AlarmRule[] = [];
  let longestHoldMs = 0;
  let followsProgram = false;
  const refills: { id: string; field: string; margin: number; level: number; holdMs: number }[] = [];
  // The low limit of each field: the highest of its PLC L / LL limits and its `<` / `<=` threshold rules.
  const lows = new Map<string, number>();
  const lowAt = (field: string, value: number | null) => {
    if (value === null || !Number.isFinite(value)) return;
    lows.set(field, Math.max(value, lows.get(field) ?? -Infinity));
  };
  const addField = (rule: AlarmRule) => {
    const list = byField.get(rule.field);
    if (list) list.push(rule);
    else byField.set(rule.field, [rule]);
    longestHoldMs = Math.max(longestHoldMs, rule.holdMs);
  };
  for (const r of row.rules) {
    if (!isRuleType(r.type)) continue;
    const base = {
      key: `${r.type}:${r.id}`,
      type: r.type,
      field: r.field ?? '',
      level: Math.min(4, Math.max(1, r.level)),
      holdMs: Math.max(0, r.duration) * 1000,
      threshold: numberOrNull(r.threshold),
    };
    if (r.type === 'refill') {
      if (base.field && base.threshold !== null && base.threshold > 0)
        refills.push({ id: r.id, field: base.field, margin: base.threshold, level: base.level, holdMs: base.holdMs });
      continue;
    }
    if (r.type === 'threshold' && (r.operator === '<' || r.operator === '<=')) lowAt(base.field, base.threshold);
    if (r.type === 'offline') offline.push({ ...base, field: '' });
    else if (r.type === 'cycle') cycle.push({ ...base, field: '' });
    else if (base.field && (r.type !== 'threshold' || isOperator(r.operator))) {
      if (r.type === 'concentration' && base.threshold === null) followsProgram = true;
      if ((r.type === 'threshold' || r.type === 'rate') && base.threshold === null) continue;
      addField(r.type === 'threshold' ? { ...base, operator: r.operator as AlarmOperator } : base);
    }
  }
  for (const v of row.limits) {
    const limits: [LimitName, number | null, number][] = [
      ['HH', numberOrNull(v.hh), severer(v.level)],
      ['H', numberOrNull(v.h), v.level],
      ['L', numberOrNull(v.l), v.level],
      ['LL', numberOrNull(v.ll), severer(v.level)],
    ];
    lowAt(v.name, numberOrNull(v.l));
    lowAt(v.name, numberOrNull(v.ll));
    for (const [limit, threshold, level] of limits)
      if (threshold !== null)
        addField({
          key: `limit:${v.id}:${limit}`,
          type: 'limit',
          field: v.name,
          level: Math.min(4, Math.max(1, level)),
          holdMs: 0,
          threshold,
          limit,
        });
  }
  // A refill reminder needs the low limit it reminds ahead of; without one it watches nothing.
  for (const r of refills) {
    const low = lows.get(r.field);
    if (low === undefined) continue;
    addField({
      key: `refill:${r.id}`,
      type: 'refill',
      field: r.field,
      level: r.level,
      holdMs: r.holdMs,
      threshold: low + r.margin,
      clearAbove: low + 2 * r.margin,
    });
  }
  const targets = new Map<number, number>();
  for (const p of row.programs) if (p.target !== null) targets.set(p.no, Number(p.target));
  return {
    tenantId: row.tenant_id,
    deviceCode: row.device_code,
    deviceId: row.device_id,
    deptId: row.dept_id,
    deviceName: row.device_name,
    byField,
    targets,
    fieldInfo: new Map(
      row.fields.map((f) => [
        f.key,
        { name: f.name, unit: f.unit, enumeration: Array.isArray(f.enumeration) ? f.enumeration : null },
      ]),
    ),
    offline,
    cycle,
    longestHoldMs,
    followsProgram,
  };
}

interface Entry {
  at: number;
  profile: DeviceProfile | undefined;
}

export const deviceKey = (tenantId: string, deviceCode: string) => `${tenantId}\u0000${deviceCode}`;

export class AlarmRules {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every drop, so a load that started before a change does not store what it read. */
  private generation = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly changes: RuleChanges | undefined,
    private readonly now: () => number = Date.now,
  ) {
    changes?.subscribe((topic) => this.drop(topic));
  }

  /** The cached profile (undefined: not a device, or not loaded: see `load`). */
  cached(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const maxAge = this.changes?.isLive() ? MAX_AGE_MS : MAX_AGE_UNWATCHED_MS;
    if (this.now() - entry.at >= maxAge) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Profiles of these devices (tenant, code), from the cache or one statement for those it misses. */
  async load(
    devices: ReadonlyMap<string, { tenantId: string; deviceCode: string }>,
  ): Promise<Map<string, DeviceProfile | undefined>> {
    const out = new Map<string, DeviceProfile | undefined>();
    const missing: { tenantId: string; deviceCode: string }[] = [];
    for (const [key, device] of devices) {
      const entry = this.cached(key);
      if (entry) out.set(key, entry.profile);
      else missing.push(device);
    }
    if (!missing.length) return out;
    const generation = this.generation;
    const { rows } = await this.pool.query<ProfileRow>(PROFILE_SQL, [
      missing.map((d) => d.tenantId),
      missing.map((d) => d.deviceCode),
    ]);
    const found = new Map(rows.map((row) => [deviceKey(row.tenant_id, row.device_code), profileOf(row)]));
    const at = this.now();
    for (const device of missing) {
      const key = deviceKey(device.tenantId, device.deviceCode);
      const profile = found.get(key);
      out.set(key, profile);
      if (generation !== this.generation) continue;
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { at, profile });
    }
    return out;
  }

  private drop(topic: string): void {
    const [kind, code, tenant] = topic.split(':');
    let tenantId: string | undefined;
    if (topic === '*') tenantId = '*';
    else if (kind === 'tenant') tenantId = code;
    else if (kind === 'rows' && code !== undefined && WATCHED.has(code)) tenantId = tenant;
    if (tenantId === undefined) return;
    this.generation++;
    if (tenantId === '*') return this.entries.clear();
    const prefix = `${tenantId}\u0000`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

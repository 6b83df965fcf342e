import {
  DeviceRunState,
  UNHANDLED_WARNING_STATUSES,
  type AlarmRuleType,
  type DeviceLiveEvent,
  type LiveEvent,
} from '@mes/contracts';
import type { BatchRows } from './batch-rows';
import type { Statement } from './batch-statements';

/**
 * A device's run state follows its data (docs/devices.md "Run state"), by its product's
 * declaration (`phaseField`, `faultField`, `faultWarningLevel`), in this order:
 *
 * 1. maintenance — set by hand (`mes_device.maintenance`); nothing derived overrides it;
 * 2. fault — the fault-code field's latest value is set (not 0), or an unhandled warning of the
 *    device at the product's fault level or more severe is open (the statuses of the one count
 *    of open warnings, modules/warning/unhandled-warnings.ts) — not a refill reminder: a tank
 *    near its low limit is work to do, the device still disinfects (docs/maintenance.md);
 * 3. disinfecting — the device is online and its phase field's latest value is set: an offline
 *    device's phase is the last one it sent, not a cycle under way;
 * 4. idle.
 *
 * Evaluated in PostgreSQL, set-wise, for the devices a batch (or the inactivity sweep, a warning
 * handled, a device saved) touched: one statement, which writes only the devices whose state
 * changed and answers them for their live events.
 */

/** Whether a latest value (a jsonb entry's `v`) counts as set: a number ≠ 0, true, or text other than '' and '0'. */
const isSet = (value: string) => `(case jsonb_typeof(${value})
    when 'number' then (${value})::numeric <> 0
    when 'boolean' then (${value})::boolean
    when 'string' then (${value} #>> '{}') not in ('', '0')
    else false end)`;

const entry = (field: string) => `(l.latest -> nullif(p.${field}, '') -> 'v')`;

const UNHANDLED = UNHANDLED_WARNING_STATUSES.join(', ');
/** The warning type of a refill reminder, which never makes a device faulty. */
const REMINDER: AlarmRuleType = 'refill';

/** The derived state of device `d` with its product `p` and latest values `l` (left joined). */
export const RUN_STATE_EXPRESSION = `case
    when d.maintenance then ${DeviceRunState.maintenance}
    when coalesce(${isSet(entry('fault_field'))}, false) then ${DeviceRunState.fault}
    when p.fault_warning_level is not null and exists (
      select 1 from mes_warning w
       where w.tenant_id = d.tenant_id and w.device_code = d.device_code and w.is_deleted = 0
         and w.status in (${UNHANDLED}) and w.level <= p.fault_warning_level
         and w.warning_type <> '${REMINDER}') then ${DeviceRunState.fault}
    when d.online and coalesce(${isSet(entry('phase_field'))}, false) then ${DeviceRunState.disinfecting}
    else ${DeviceRunState.idle} end`;

/**
 * Devices in key order (as the latest values' merge takes them), so that two batches updating
 * the same devices never wait on each other in a cycle.
 */
const REFRESH = `
with touched as (
  select distinct t.tenant_id, t.device_code
    from unnest($1::varchar[], $2::varchar[]) as t(tenant_id, device_code)
), derived as (
  select d.id, ${RUN_STATE_EXPRESSION} as state
    from touched t
    join mes_device d on d.tenant_id = t.tenant_id and d.device_code = t.device_code and d.is_deleted = 0
    left join mes_product p on p.id = d.product_id and p.is_deleted = 0
    left join mes_device_latest l on l.tenant_id = d.tenant_id and l.device_code = d.device_code and l.is_deleted = 0
   order by d.tenant_id, d.device_code
     for update of d
)
update mes_device d set run_state = n.state
  from derived n
 where d.id = n.id and d.run_state is distinct from n.state
returning d.tenant_id, d.device_code, d.dept_id::text as dept_id, d.run_state`;

export interface DeviceKey {
  tenantId: string;
  deviceCode: string;
}

/** The statement that brings these devices' run state up to date with their data. */
export function runStateRefresh(devices: readonly DeviceKey[]): Statement {
  return { text: REFRESH, values: [devices.map((d) => d.tenantId), devices.map((d) => d.deviceCode)] };
}

/** A client of an open transaction, pg's or a Drizzle transaction's (`txQueryable`). */
export interface RunStateClient {
  query<R>(text: string, values: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Inside the caller's transaction: the run state of these devices derived again, and the live
 * events of those whose state changed (for `publishChanges`).
 */
export async function refreshRunState(
  client: RunStateClient,
  devices: readonly DeviceKey[],
  at: Date,
): Promise<DeviceLiveEvent[]> {
  if (!devices.length) return [];
  const { text, values } = runStateRefresh(devices);
  const { rows } = await client.query<{
    tenant_id: string;
    device_code: string;
    dept_id: string | null;
    run_state: number;
  }>(text, values);
  return rows.map((r) => ({
    type: 'device',
    action: 'state',
    tenantId: r.tenant_id,
    deptId: r.dept_id,
    deviceCode: r.device_code,
    runState: Number(r.run_state),
    at: at.toISOString(),
  }));
}

/**
 * The devices whose run state a batch may have moved: new latest values, a presence change, a
 * finished cycle, a warning raised or cleared.
 */
export function touchedDevices(
  rows: Pick<BatchRows, 'latest' | 'presence' | 'cycles'>,
  warnings: readonly LiveEvent[],
): DeviceKey[] {
  const seen = new Map<string, DeviceKey>();
  const add = (tenantId: string, deviceCode: string) =>
    seen.set(`${tenantId}\u0000${deviceCode}`, { tenantId, deviceCode });
  for (const r of rows.latest) add(r.tenantId, r.deviceCode);
  for (const r of rows.presence) add(r.tenantId, r.deviceCode);
  for (const r of rows.cycles) add(r.tenantId, r.deviceCode);
  for (const e of warnings) if (e.type === 'warning' || e.type === 'device') add(e.tenantId, e.deviceCode);
  return [...seen.values()];
}

import { sql, type SQL } from 'drizzle-orm';
import { MaintenanceDueState } from '@mes/contracts';
import { device, deviceCycle, maintenancePlan, maintenanceRecord } from '../../platform/db/schema';
import { liveRows, rowsOfSameTenant } from '../../platform/tenancy/tenant-scope';

/**
 * The due list (contracts `maintenanceDueResource`): one row per live device and plan of its
 * product, in the definition's columns, plus `period_from` (the start of the current period) and
 * `plan_name` / `device_name` for the notices. A period starts at the end of the last completed
 * maintenance of the plan (a record without a plan counts for every plan of the device), or when
 * the device was added; cycles count the device's finished cycles that started since.
 * The engine adds the tenant and data-scope conditions on the outer query; the joins stay in the
 * device's own tenant.
 */
/** A due state as a literal integer (a parameter would leave the CASE's type to text). */
const state = (value: number) => sql.raw(String(Math.trunc(value)));

export function maintenanceDueQuery(): SQL {
  const d = device;
  const p = maintenancePlan;
  const r = maintenanceRecord;
  const c = deviceCycle;
  const dueDays = sql`base.since + make_interval(days => ${p.intervalDays})`;
  const noticeDays = sql`base.since + make_interval(days => ${p.intervalDays} - ${p.noticeDays})`;
  const overdue = sql`(${p.intervalCycles} is not null and counted.cycles >= ${p.intervalCycles})
      or (${p.intervalDays} is not null and now() >= ${dueDays})`;
  const soon = sql`(${p.intervalCycles} is not null and counted.cycles >= ${p.intervalCycles} - ${p.noticeCycles})
      or (${p.intervalDays} is not null and now() >= ${noticeDays})`;
  return sql`select concat_ws(':', ${d.id}, ${p.id}) as id, ${d.tenantId} as tenant_id,
      ${d.id} as device_id, ${d.deviceCode} as device_code, ${d.deviceName} as device_name, ${d.deptId} as dept_id,
      ${p.id} as plan_id, ${p.planName} as plan_name,
      last_done.end_time as last_maintenance, base.since as period_from,
      counted.cycles as cycles_since,
      floor(extract(epoch from now() - base.since) / 86400)::int as days_since,
      ${p.intervalCycles} as interval_cycles, ${p.intervalDays} as interval_days,
      ${p.intervalCycles} - counted.cycles as cycles_left,
      case when ${p.intervalDays} is null then null else ${dueDays} end as due_at,
      case when ${overdue} then ${state(MaintenanceDueState.overdue)}
        when ${soon} then ${state(MaintenanceDueState.soon)}
        else ${state(MaintenanceDueState.ok)} end as due_state,
      null::bigint as create_user
    from ${d}
    join ${p} on ${p.productId} = ${d.productId} and ${rowsOfSameTenant(p, d)}
    left join lateral (
      select max(${r.endTime}) as end_time from ${r}
      where ${rowsOfSameTenant(r, d)} and ${r.deviceId} = ${d.id} and ${r.endTime} is not null
        and (${r.planId} = ${p.id} or ${r.planId} is null)
    ) as last_done on true
    cross join lateral (select coalesce(last_done.end_time, ${d.createTime}) as since) as base
    left join lateral (
      select count(*)::int as cycles from ${c}
      where ${rowsOfSameTenant(c, d)} and ${c.deviceCode} = ${d.deviceCode} and ${c.startTime} >= base.since
    ) as counted on true
    where ${liveRows(d)}`;
}

import type pg from 'pg';
import type { CycleLiveEvent } from '@mes/contracts';
import { nextId } from '../../platform/db/ids';
import type { CycleRow } from './batch-rows';

/**
 * Finished cycles into `mes_device_cycle` and their per-day counts into `mes_device_cycle_day`,
 * in one statement inside the batch's transaction. A cycle already stored (same tenant, device
 * and start: a redelivery) inserts nothing, and only the rows actually inserted are counted, so
 * the day rows always equal the counts of the cycle rows. The day is the cycle's end in
 * Asia/Shanghai (the product's time zone); the device's id and department are the device row's.
 */

type Query = Pick<pg.PoolClient, 'query'>;

/** A cycle as stored: what the live event and the cycle rule need. */
export interface StoredCycle {
  id: string;
  tenantId: string;
  deviceCode: string;
  deptId: string | null;
  programNo: number;
  programName: string;
  result: number;
  faultCode: number;
  end: Date;
}

export const CYCLE_DAY_ZONE = 'Asia/Shanghai';

export async function storeCycles(client: Query, cycles: readonly CycleRow[]): Promise<StoredCycle[]> {
  if (!cycles.length) return [];
  const { rows } = await client.query<{
    id: string;
    tenant_id: string;
    device_code: string;
    dept_id: string | null;
    program_no: number;
    program_name: string;
    result: number;
    fault_code: number;
    end_time: Date;
  }>(
    `with v as (
       select * from unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::int[], $5::varchar[], $6::timestamptz[],
                            $7::timestamptz[], $8::int[], $9::int[], $10::int[], $11::numeric[], $12::numeric[],
                            $13::numeric[], $14::numeric[], $15::int[], $16::jsonb[])
         as v(id, tenant_id, device_code, program_no, program_name, start_time, end_time, duration_seconds, result,
              fault_code, max_temperature, min_temperature, max_pressure, min_concentration, hold_seconds, figures)),
     ins as (
       insert into mes_device_cycle (id, device_id, device_code, dept_id, program_no, program_name, start_time, end_time,
                                     duration_seconds, result, fault_code, max_temperature, min_temperature, max_pressure,
                                     min_concentration, hold_seconds, figures, tenant_id)
       select v.id, d.id, v.device_code, d.dept_id, v.program_no, v.program_name, v.start_time, v.end_time,
              v.duration_seconds, v.result, v.fault_code, v.max_temperature, v.min_temperature, v.max_pressure,
              v.min_concentration, v.hold_seconds, v.figures, v.tenant_id
         from v
         left join mes_device d on d.tenant_id = v.tenant_id and d.device_code = v.device_code and d.is_deleted = 0
       on conflict (tenant_id, device_code, start_time) do nothing
       returning id, tenant_id, device_code, device_id, dept_id, program_no, program_name, result, fault_code,
                 end_time, duration_seconds),
     days as (
       insert into mes_device_cycle_day (tenant_id, day, device_code, device_id, dept_id, cycles, passes, fails, aborts, seconds)
       select tenant_id, (end_time at time zone '${CYCLE_DAY_ZONE}')::date, device_code, max(device_id), max(dept_id),
              count(*), count(*) filter (where result = 1), count(*) filter (where result = 2),
              count(*) filter (where result = 3), sum(duration_seconds)
         from ins
        group by 1, 2, 3
       on conflict (tenant_id, day, device_code) do update
          set cycles = mes_device_cycle_day.cycles + excluded.cycles,
              passes = mes_device_cycle_day.passes + excluded.passes,
              fails = mes_device_cycle_day.fails + excluded.fails,
              aborts = mes_device_cycle_day.aborts + excluded.aborts,
              seconds = mes_device_cycle_day.seconds + excluded.seconds,
              device_id = coalesce(excluded.device_id, mes_device_cycle_day.device_id),
              dept_id = coalesce(excluded.dept_id, mes_device_cycle_day.dept_id))
     select id::text, tenant_id, device_code, dept_id::text, program_no, program_name, result, fault_code, end_time
       from ins order by end_time`,
    [
      cycles.map(() => nextId()),
      cycles.map((c) => c.tenantId),
      cycles.map((c) => c.deviceCode),
      cycles.map((c) => c.programNo),
      cycles.map((c) => c.programName),
      cycles.map((c) => c.start),
      cycles.map((c) => c.end),
      cycles.map((c) => c.durationSeconds),
      cycles.map((c) => c.result),
      cycles.map((c) => c.faultCode),
      cycles.map((c) => c.maxTemperature),
      cycles.map((c) => c.minTemperature),
      cycles.map((c) => c.maxPressure),
      cycles.map((c) => c.minConcentration),
      cycles.map((c) => c.holdSeconds),
      cycles.map((c) => JSON.stringify(c.figures)),
    ],
  );
  return rows.map((r) => ({
    id: r.id,
    tenantId: r.tenant_id,
    deviceCode: r.device_code,
    deptId: r.dept_id,
    programNo: r.program_no,
    programName: r.program_name,
    result: r.result,
    faultCode: r.fault_code,
    end: new Date(r.end_time),
  }));
}

export const cycleLiveEvent = (cycle: StoredCycle): CycleLiveEvent => ({
  type: 'cycle',
  action: 'finished',
  tenantId: cycle.tenantId,
  deptId: cycle.deptId,
  deviceCode: cycle.deviceCode,
  result: cycle.result,
  at: cycle.end.toISOString(),
});

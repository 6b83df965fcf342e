import { and, eq, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import {
  addDays,
  apiScopeCodes,
  CycleResult,
  ParametricResult,
  PackState,
  disinfectionLedgerResource,
  DISINFECTION_LEDGER_ROUTE,
  isLedgerRangeError,
  LEDGER_PARAMS,
  LEDGER_TIME_ZONE,
  ledgerRange,
  LedgerPeriod,
  invalidParamText,
  type LedgerRange,
} from '@mes/contracts';
import type { AppContext } from '../../../app-context';
import { aggregateQueryTable } from '../../../engine/aggregate/aggregate-source';
import { registerResource } from '../../../engine/resource-routes';
import { requireAuth } from '../../../platform/auth/request-auth';
import { device, disinfectionRecord, load, packMove, verificationRecord, warning } from '../../../platform/db/schema';
import { ok } from '../../../platform/http/envelope';
import { badRequest } from '../../../platform/http/errors';
import { liveRows, rowsOfSameTenant } from '../../../platform/tenancy/tenant-scope';
import { zoneDay } from '../../welcome/welcome-days';

/** The first day of the period an instant falls in, in the ledger's time zone. */
function periodStartOf(period: LedgerPeriod, at: PgColumn): SQL {
  const local = sql`(${at} at time zone ${LEDGER_TIME_ZONE})`;
  return period === LedgerPeriod.day ? sql`${local}::date` : sql`date_trunc('month', ${local})::date`;
}

/** The instant a day (yyyy-MM-dd) begins in the ledger's time zone. */
const dayStart = (day: string): SQL => sql`(${day}::date)::timestamp at time zone ${LEDGER_TIME_ZONE}`;

/**
 * The local days whose records a range's rows sum, end exclusive: the days asked, or the whole
 * months they touch for a monthly ledger.
 */
export function ledgerSpan(range: LedgerRange): { from: string; until: string } {
  if (range.period === LedgerPeriod.day)
    return { from: range.startDate, until: addDays(range.endDate, 1) ?? '9999-12-31' };
  const nextMonth = addDays(`${range.endDate.slice(0, 7)}-01`, 31) ?? '9999-12-31';
  return { from: `${range.startDate.slice(0, 7)}-01`, until: `${nextMonth.slice(0, 7)}-01` };
}

/**
 * The packs that went into the load of a record's cycle (moves into sterilising with that load),
 * counted from the history so that a pack reprocessed into a later load still counts here.
 */
function packsOfCycle(cycleId: PgColumn, r: typeof disinfectionRecord): SQL {
  const l = load;
  const m = packMove;
  return sql`(select count(distinct ${m.packId}) from ${l} inner join ${m} on ${m.loadId} = ${l.id}
      and ${rowsOfSameTenant(m, l, eq(m.toState, PackState.sterilising))}
    where ${rowsOfSameTenant(l, r)} and ${l.cycleId} = ${cycleId})::int`;
}

/**
 * One row per current record version (not superseded, not removed) and one per warning, in the
 * same columns, so that one GROUP BY sums both without a join between tenants' rows. The
 * device's chairs come with each record (joined in the record's own tenant). Both are bounded by
 * the span's instants, which the tenant-and-time indexes of both tables serve.
 */
function eventsOf(period: LedgerPeriod, span: { from: string; until: string }): SQL {
  const r = disinfectionRecord;
  const w = warning;
  const d = device;
  const within = (at: PgColumn) => sql`${at} >= ${dayStart(span.from)} and ${at} < ${dayStart(span.until)}`;
  const records = sql`select ${r.tenantId} as tenant_id, ${r.deptId} as dept_id, ${r.deviceCode} as device_code,
      ${r.deviceId} as device_id, ${r.recordType} as record_type, ${periodStartOf(period, r.endTime)} as period_start,
      1 as cycle, ${r.result} as result,
      coalesce(${r.durationSeconds}, extract(epoch from ${r.endTime} - ${r.startTime}))::numeric as seconds,
      ${r.concentration}::numeric as concentration, ${r.waterVolume}::numeric as water_volume,
      ${d.chairs} as chairs, 0 as warning,
      ${r.lethalityKind} as lethality_kind, ${r.lethality}::numeric as lethality, ${r.parametricResult} as parametric_result,
      ${packsOfCycle(r.cycleId, r)} as packs
    from ${r} left join ${d} on ${d.id} = ${r.deviceId} and ${rowsOfSameTenant(d, r)}
    where ${and(liveRows(r), eq(r.superseded, false), within(r.endTime))}`;
  const warnings = sql`select ${w.tenantId}, ${w.deptId}, ${w.deviceCode}, ${w.deviceId}, null::int,
      ${periodStartOf(period, w.startTime)}, 0, null::int, null::numeric, null::numeric, null::numeric, null::int, 1,
      null::varchar, null::numeric, null::int, 0
    from ${w}
    where ${and(liveRows(w), within(w.startTime))}`;
  return sql`${records} union all ${warnings}`;
}

/**
 * The ledger rows of a request, in the columns of the definition. The engine's conditions on the
 * derived table (tenant, department, device code) are on grouping columns, so PostgreSQL moves
 * them into both branches of `eventsOf` before anything is summed.
 *
 * - passes / fails / aborts count the results of dictionary `disinfection_result`;
 * - total minutes: the recorded duration, or end − start where the device sent none;
 * - disinfectant used: Σ water volume (L) × concentration (mg/L), milligrams of the active
 *   substance (a record without either contributes nothing);
 * - warnings: those whose start falls in the period, of the same device and department;
 * - A0 / F0: the least and the mean of the records judged by that lethality, and the records
 *   failed parametrically (docs/lethality.md).
 */
export function ledgerQuery(range: LedgerRange): SQL {
  const { period } = range;
  const cycle = sql.raw('cycle = 1');
  const grouped = sql`select concat_ws(':', ${period}::text, period_start, coalesce(dept_id::text, '-'), device_code) as id,
      tenant_id, ${period}::text as period, period_start, dept_id,
      max(device_id) filter (where ${cycle}) as device_id, device_code,
      max(record_type) as record_type, max(chairs) as chairs,
      (count(*) filter (where ${cycle}))::int as cycles,
      (count(*) filter (where result = ${CycleResult.pass}))::int as passes,
      (count(*) filter (where result = ${CycleResult.fail}))::int as fails,
      (count(*) filter (where result = ${CycleResult.aborted}))::int as aborts,
      round(sum(seconds) / 60, 1)::numeric(14, 1) as total_minutes,
      round(avg(concentration), 2)::numeric(14, 2) as avg_concentration,
      min(concentration)::numeric(14, 2) as min_concentration,
      sum(water_volume)::numeric(14, 2) as water_volume,
      round(sum(water_volume * concentration), 2)::numeric(14, 2) as disinfectant_mg,
      sum(warning)::int as warnings,
      count(concentration)::int as concentration_count,
      min(lethality) filter (where lethality_kind = 'A0')::numeric(14, 2) as min_a0,
      round(avg(lethality) filter (where lethality_kind = 'A0'), 2)::numeric(14, 2) as avg_a0,
      min(lethality) filter (where lethality_kind = 'F0')::numeric(14, 2) as min_f0,
      round(avg(lethality) filter (where lethality_kind = 'F0'), 2)::numeric(14, 2) as avg_f0,
      (count(*) filter (where parametric_result = ${ParametricResult.fail}))::int as parametric_fails,
      coalesce(sum(packs), 0)::int as packs,
      null::bigint as create_user
    from (${eventsOf(period, ledgerSpan(range))}) as ledger_events
    group by tenant_id, period_start, dept_id, device_code
    having count(*) filter (where ${cycle}) > 0`;
  // The row's period ends at the next day's or month's start, in the ledger's zone.
  const step = sql.raw(period === LedgerPeriod.day ? "interval '1 day'" : "interval '1 month'");
  const v = verificationRecord;
  return sql`select ledger_rows.*, last_verification.verification_type as last_verification_type,
      last_verification.result as last_verification_result, last_verification.test_time as last_verification_time
    from (${grouped}) as ledger_rows
    left join lateral (
      select ${v.verificationType} as verification_type, ${v.result} as result, ${v.testTime} as test_time
      from ${v}
      where ${rowsOfSameTenant(v, { tenantId: sql`ledger_rows.tenant_id` }, eq(v.superseded, false))}
        and ${v.deviceId} = ledger_rows.device_id
        and ${v.testTime} < (ledger_rows.period_start + ${step})::timestamp at time zone ${LEDGER_TIME_ZONE}
      order by ${v.testTime} desc
      limit 1
    ) as last_verification on true`;
}

/** `period`, `startDate`, `endDate` as checked by the contracts' `ledgerRange` (400 naming the parameter). */
export function requestedRange(query: Record<string, unknown>, now = Date.now()): LedgerRange {
  const range = ledgerRange(query, zoneDay(now));
  if (isLedgerRangeError(range)) throw badRequest(invalidParamText(range.param, range.why));
  return range;
}

/**
 * 消毒台账: `GET /api/blade-business/disinfection/ledger` (the page), `.../ledger/export` (xlsx),
 * read by the engine from `ledgerQuery` of each request's range, with the ledger's own read scope.
 */
export function registerLedgerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const relation = (query: Record<string, unknown>) =>
    aggregateQueryTable(disinfectionLedgerResource, ledgerQuery(requestedRange(query)));
  // The shape every request's relation shares; reads with a request use their own (relationFor).
  const table = relation({});
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const column = (name: string) => columns[name] as PgColumn;
  const service = registerResource(app, ctx, {
    def: disinfectionLedgerResource,
    table,
    omit: ['list'],
    relationFor: relation,
    hooks: {
      listParams: {
        names: LEDGER_PARAMS,
        // Redundant with the relation's own bounds, and kept: the rows are of the period and days asked
        // whatever builds the relation (the registration's `table`, a future caller of `all`).
        where: (query) => {
          const range = requestedRange(query);
          return and(
            eq(column('period'), range.period),
            gte(column('periodStart'), range.startDate),
            lte(column('periodStart'), range.endDate),
          );
        },
      },
    },
  });
  const read = { apiScope: apiScopeCodes(disinfectionLedgerResource.code).read };
  app.get(`/api${DISINFECTION_LEDGER_ROUTE}`, { config: read }, async (request) =>
    ok(await service.page(request.query as Record<string, unknown>, requireAuth(request))),
  );
}

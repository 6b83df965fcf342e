import { and, asc, eq, getTableColumns, gt, notExists } from 'drizzle-orm';
import { z } from 'zod';
import {
  CycleResult,
  deviceCycleResource,
  disinfectionRecordResource,
  ParametricResult,
  RecordSource,
  recordTypeOfCategory,
} from '@mes/contracts';
import { oncePerContext, type AppContext } from '../../../app-context';
import { RecordChain } from '../../../engine/records/record-chain';
import { ALL_TENANTS, rowsTopic } from '../../../platform/cache/row-changes';
import { device, deviceCycle, disinfectionRecord, product } from '../../../platform/db/schema';
import { defineJob } from '../../../platform/jobs/job-definition';
import { rowsOfSameTenant, tenantRows } from '../../../platform/tenancy/tenant-scope';
import { clipText } from '../../../platform/mqtt/device-text';
import { judgementOf, type StoredJudgement } from './cycle-judgement';
import { newRecordNo } from './record-device';
import { JUDGEMENT_PERSON, JUDGEMENT_USER, recallParametricFailure } from './parametric-recall';

/**
 * Finished cycles become records by this job, after ingestion's commit, not inside the batch:
 * the chain's lock and hash would otherwise sit in every ingestion transaction (docs/decisions.md).
 * A tenant's new cycles trigger it at once (the change feed); a sweep every minute catches
 * whatever a trigger missed. A cycle has at most one record (unique index), so two runs at once
 * cannot make two.
 */
export const recordsFromCyclesJob = defineJob({
  name: 'records.from-cycles',
  payload: z.object({ tenantId: z.string().max(12).optional() }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
});

const SWEEP_CRON = '* * * * *';
const BATCH = 200;
const PG_UNIQUE_VIOLATION = '23505';
/** The record's `failReason` column. */
const FAIL_REASON_MAX = 255;

const figureOf = (figures: unknown, name: string): number | null => {
  const value = figures && typeof figures === 'object' ? (figures as Record<string, unknown>)[name] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};
const intFigure = (figures: unknown, name: string) => {
  const value = figureOf(figures, name);
  return value !== null && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647 ? value : null;
};
const decimalFigure = (figures: unknown, name: string) => {
  const value = figureOf(figures, name);
  return value !== null && Math.abs(value) < 1e6 ? value.toFixed(2) : null;
};

/**
 * How far back the job looks for cycles without a record: a week of cycles to check against
 * their records, not every cycle ever stored (a tenant's run reads them through the (tenant, end
 * time) index). A cycle stays unrecorded only if the job failed for a whole week.
 */
const LOOKBACK_MS = 7 * 24 * 3_600_000;

/** The recent cycles of one tenant (or every tenant) that have no record yet, oldest first. */
function pendingCycles(ctx: AppContext, tenantId: string | undefined, lookbackMs: number) {
  const recent = gt(deviceCycle.endTime, new Date(ctx.clock.now() - lookbackMs));
  const noRecord = notExists(
    ctx.db
      .select({ id: disinfectionRecord.id })
      .from(disinfectionRecord)
      .where(rowsOfSameTenant(disinfectionRecord, deviceCycle, eq(disinfectionRecord.cycleId, deviceCycle.id))),
  );
  return ctx.db
    .select({ ...getTableColumns(deviceCycle), productId: device.productId, category: product.category })
    .from(deviceCycle)
    .leftJoin(device, eq(device.id, deviceCycle.deviceId))
    .leftJoin(product, eq(product.id, device.productId))
    .where(tenantId ? tenantRows(deviceCycle, tenantId, recent, noRecord) : and(recent, noRecord))
    .orderBy(asc(deviceCycle.endTime), asc(deviceCycle.id))
    .limit(BATCH);
}

type Pending = Awaited<ReturnType<typeof pendingCycles>>[number];

/** The chain the job appends to; a backfill appends through the same one. */
export const disinfectionRecordChain = () => new RecordChain(disinfectionRecordResource, disinfectionRecord);

/**
 * The record of a cycle: its figures as the device sent them, no operator (the device ran it), and
 * its parametric judgement (docs/lethality.md). A cycle the device passed but its profile fails is
 * a failed record, the reason naming the broken limit: release goes by the parameters.
 */
function recordOf(cycle: Pending, judgement: StoredJudgement): Record<string, unknown> {
  const { productId, category } = cycle;
  const deviceFailed = cycle.result !== CycleResult.pass;
  const parametricFail = judgement.parametricResult === ParametricResult.fail;
  const reasons = [
    deviceFailed && cycle.faultCode ? `故障码 ${cycle.faultCode}` : '',
    parametricFail ? judgement.parametricReason : '',
  ].filter(Boolean);
  return {
    recordNo: newRecordNo(),
    deviceId: cycle.deviceId,
    deviceCode: cycle.deviceCode,
    productId,
    deptId: cycle.deptId,
    recordType: recordTypeOfCategory(Number(category ?? 0)),
    source: RecordSource.cycle,
    cycleId: cycle.id,
    programNo: cycle.programNo,
    programName: cycle.programName,
    startTime: cycle.startTime,
    endTime: cycle.endTime,
    durationSeconds: cycle.durationSeconds,
    maxTemperature: cycle.maxTemperature,
    minTemperature: cycle.minTemperature,
    pressure: cycle.maxPressure,
    concentration: cycle.minConcentration,
    holdSeconds: cycle.holdSeconds,
    flushSeconds: intFigure(cycle.figures, 'flushSeconds'),
    waterVolume: decimalFigure(cycle.figures, 'waterVolume'),
    todayBatch: intFigure(cycle.figures, 'todayBatch'),
    totalBatch: intFigure(cycle.figures, 'totalBatch'),
    result: !deviceFailed && parametricFail ? CycleResult.fail : cycle.result,
    failReason: clipText(reasons.join('；'), FAIL_REASON_MAX),
    ...judgement,
  };
}

interface PgError {
  code?: string;
  constraint?: string;
  cause?: { code?: string; constraint?: string };
}
const isUniqueViolation = (error: unknown) => {
  const e = error as PgError;
  return (e.code ?? e.cause?.code) === PG_UNIQUE_VIOLATION;
};
/** The unique index a violation hit (drizzle wraps the driver's error in `cause`). */
const constraintOf = (error: unknown) => {
  const e = error as PgError;
  return e.constraint ?? e.cause?.constraint ?? '';
};

/**
 * Makes the records of pending cycles: one transaction per device (its chain's lock taken once,
 * one commit for all its new cycles), a savepoint per cycle so that a cycle another run has just
 * recorded is skipped without undoing the others. `lookbackMs` widens the window for a backfill
 * (the demo tenant's month of cycles, docs/demo.md); the job keeps its week.
 *
 * A cycle whose record was deleted behind the application's back looks like a new one here and
 * gets its record again, from the stored cycle: the chain appends it after its head, not in the
 * deleted row's position, so the gap stays and `verify` keeps naming the deletion (docs/records.md
 * "Records from cycles after a deletion"). Nothing here reads the rows to decide a position.
 */
export async function recordsFromCycles(
  ctx: AppContext,
  chain: RecordChain,
  tenantId?: string,
  lookbackMs: number = LOOKBACK_MS,
): Promise<number> {
  let made = 0;
  const tenants = new Set<string>();
  for (;;) {
    const pending = await pendingCycles(ctx, tenantId, lookbackMs);
    const byChain = new Map<string, Pending[]>();
    for (const row of pending) {
      const key = `${row.tenantId}/${row.deviceCode}`;
      byChain.set(key, [...(byChain.get(key) ?? []), row]);
    }
    for (const cycles of byChain.values())
      await ctx.db.transaction(async (tx) => {
        for (const row of cycles) {
          try {
            await tx.transaction(async (savepoint) => {
              const judgement = await judgementOf(savepoint, { ...row, tenantId: String(row.tenantId) });
              await chain.append(savepoint, String(row.tenantId), recordOf(row, judgement));
              // A load already naming the cycle (usually it is given its cycle later: the load's hook).
              if (judgement.parametricResult === ParametricResult.fail)
                await recallParametricFailure(
                  savepoint,
                  { tenantId: String(row.tenantId), userId: JUDGEMENT_USER },
                  String(row.id),
                  JUDGEMENT_PERSON,
                  new Date(ctx.clock.now()),
                );
            });
            made += 1;
            tenants.add(String(row.tenantId));
          } catch (error) {
            if (!isUniqueViolation(error)) throw error;
            // On the cycle's index: another run made this cycle's record first. On the chain's
            // position: a row sits after the chain's head, written outside the application —
            // `verify` names it; the cycle waits, said in the log, and the other devices go on.
            if (!constraintOf(error).includes('cycle_id'))
              ctx.logs.warn(
                `records.from-cycles: cycle ${row.id} of device ${row.deviceCode} (tenant ${row.tenantId}) not recorded: ${constraintOf(error)}`,
                error,
              );
          }
        }
      });
    if (pending.length < BATCH) break;
  }
  for (const tenant of tenants) await ctx.totals.changed(disinfectionRecordResource.code, tenant);
  return made;
}

/** Registers the job, its sweep, and the trigger on a tenant's new cycles (once per context). */
export function startRecordsFromCycles(ctx: AppContext): void {
  oncePerContext(ctx, recordsFromCyclesJob.name, () => startOnce(ctx));
}

function startOnce(ctx: AppContext): void {
  const chain = disinfectionRecordChain();
  ctx.jobs.register(recordsFromCyclesJob, async ({ tenantId }) => ({
    made: await recordsFromCycles(ctx, chain, tenantId),
  }));
  ctx.jobs.schedule(recordsFromCyclesJob, SWEEP_CRON, {});
  const prefix = rowsTopic(deviceCycleResource.code, '');
  ctx.changes.subscribe((topic) => {
    const tenantId = topic.startsWith(prefix) ? topic.slice(prefix.length) : '';
    if (!tenantId || tenantId === ALL_TENANTS) return;
    // Every process hears the change; the throttle key makes it one job.
    ctx.jobs
      .enqueue(recordsFromCyclesJob, { tenantId }, { throttle: { key: `cycles-${tenantId}`, seconds: 1 } })
      .catch((error: unknown) => ctx.logs.warn('records.from-cycles could not be enqueued', error));
  });
}

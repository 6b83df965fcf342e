import { asc, eq, gte, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import { LETHALITY_KINDS, ParametricResult } from '@mes/contracts';
import { deviceCycle, productProgram, telemetry } from '../../../platform/db/schema';
import { tenantRows, tenantScope, type Queryable } from '../../../platform/tenancy/tenant-scope';
import {
  judgeCycle,
  profileJudges,
  reasonText,
  type CurvePoint,
  type CycleCurves,
  type LethalityKind,
  type ValidatedProfile,
} from '../../telemetry/lethality';

/**
 * A stored cycle judged against its program's validated profile (docs/lethality.md), by the
 * records job when it makes the cycle's record: after ingestion's commit, so the points the
 * device reported before its cycle message are stored, and outside the ingestion batch. The
 * judgement is written to the cycle once (`parametric_result` empty → set); a later run, a
 * redelivered cycle or a record made again after a deletion reads the stored one, so late points
 * never make a record disagree with its cycle.
 */

export interface StoredJudgement {
  lethalityKind: string | null;
  lethality: string | null;
  holdAchievedSeconds: number | null;
  parametricResult: number;
  parametricReason: string;
}

/** What the judgement needs of a cycle (a row of `mes_device_cycle` and its device's product). */
export interface JudgedCycle {
  id: string;
  tenantId: string;
  deviceCode: string;
  productId: string | null;
  programNo: number;
  startTime: Date;
  endTime: Date;
  lethalityKind: string | null;
  lethality: string | null;
  holdAchievedSeconds: number | null;
  parametricResult: number | null;
  parametricReason: string | null;
}

const REASON_MAX = 1000;
/**
 * At most this many points a field: a day at one a second. A cycle with more (a device reporting
 * far faster) is judged on its first day of points, which no cycle outlasts.
 */
const CURVE_POINTS = 86_400;
/** numeric(14, 2)'s largest value: a curve far above the reference (a faulty sensor) is kept as that. */
const LETHALITY_MAX = 999_999_999_999.99;
const decimal = (value: string | null) => (value === null || value === '' ? null : Number(value));
const kindOf = (value: string): LethalityKind =>
  (LETHALITY_KINDS as readonly string[]).includes(value) ? (value as LethalityKind) : 'none';

export type ProgramRow = typeof productProgram.$inferSelect;

export function profileOf(program: ProgramRow): ValidatedProfile {
  return {
    lethalityKind: kindOf(program.lethalityKind),
    plateauMin: decimal(program.plateauMin),
    plateauMax: decimal(program.plateauMax),
    minHoldSeconds: program.minHoldSeconds ?? null,
    pressureMin: decimal(program.pressureMin),
    pressureMax: decimal(program.pressureMax),
    minConcentration: decimal(program.minConcentration),
    minLethality: decimal(program.minLethality),
  };
}

const notJudged: StoredJudgement = {
  lethalityKind: null,
  lethality: null,
  holdAchievedSeconds: null,
  parametricResult: ParametricResult.none,
  parametricReason: '',
};

/** The cycle's judgement: the stored one, or computed now and stored. */
export async function judgementOf(tx: Queryable, cycle: JudgedCycle): Promise<StoredJudgement> {
  if (cycle.parametricResult !== null)
    return {
      lethalityKind: cycle.lethalityKind,
      lethality: cycle.lethality,
      holdAchievedSeconds: cycle.holdAchievedSeconds,
      parametricResult: cycle.parametricResult,
      parametricReason: cycle.parametricReason ?? '',
    };
  const judged = await judge(tx, cycle);
  // Only where still empty: two runs at once store the same judgement once.
  await tenantScope(tx, cycle.tenantId)
    .update(deviceCycle)
    .set(judged)
    .where(eq(deviceCycle.id, cycle.id), isNull(deviceCycle.parametricResult));
  return judged;
}

/** The program a cycle ran, by its product and number (none: not judged). */
export async function programOf(
  tx: Queryable,
  tenantId: string,
  productId: string | null,
  programNo: number,
): Promise<ProgramRow | undefined> {
  if (!productId) return undefined;
  const [program] = await tx
    .select()
    .from(productProgram)
    .where(
      tenantRows(
        productProgram,
        tenantId,
        eq(productProgram.productId, productId),
        eq(productProgram.programNo, programNo),
      ),
    )
    .limit(1);
  return program;
}

/**
 * The raw points of the program's curves between the cycle's start and end, read from
 * `mes_telemetry` by a query (no reach into ingestion), at most {@link CURVE_POINTS} a field.
 */
export async function curvesOf(
  tx: Queryable,
  where: { tenantId: string; deviceCode: string; startTime: Date; endTime: Date },
  program: ProgramRow,
): Promise<CycleCurves> {
  const keys = {
    temperature: program.temperatureField,
    pressure: program.pressureField,
    concentration: program.concentrationField,
  };
  const fields = [...new Set(Object.values(keys).filter((key) => key))];
  const rows = fields.length
    ? await tx
        .select({ field: telemetry.field, ts: telemetry.ts, value: telemetry.numValue })
        .from(telemetry)
        .where(
          tenantRows(
            telemetry,
            where.tenantId,
            eq(telemetry.deviceCode, where.deviceCode),
            inArray(telemetry.field, fields),
            gte(telemetry.ts, where.startTime),
            lte(telemetry.ts, where.endTime),
            isNotNull(telemetry.numValue),
          ),
        )
        .orderBy(asc(telemetry.ts))
        .limit(CURVE_POINTS * fields.length)
    : [];
  const curve = (key: string): CurvePoint[] =>
    key
      ? rows
          .filter((row) => row.field === key && row.ts)
          .map((row) => ({ t: new Date(row.ts as Date | string).getTime(), v: Number(row.value) }))
      : [];
  return {
    temperature: curve(keys.temperature),
    pressure: curve(keys.pressure),
    concentration: curve(keys.concentration),
  };
}

async function judge(tx: Queryable, cycle: JudgedCycle): Promise<StoredJudgement> {
  const program = await programOf(tx, cycle.tenantId, cycle.productId, cycle.programNo);
  if (!program) return notJudged;
  const profile = profileOf(program);
  if (!profileJudges(profile)) return notJudged;
  const judged = judgeCycle(await curvesOf(tx, cycle, program), profile);
  return {
    lethalityKind: profile.lethalityKind === 'none' ? null : profile.lethalityKind,
    lethality: judged.lethality === null ? null : Math.min(judged.lethality, LETHALITY_MAX).toFixed(2),
    holdAchievedSeconds: judged.holdSeconds === null ? null : Math.floor(judged.holdSeconds),
    parametricResult: judged.result,
    parametricReason: reasonText(judged.reasons).slice(0, REASON_MAX),
  };
}

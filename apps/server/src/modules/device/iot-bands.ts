import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { DeviceRunState, type ProgramBand, type ProgramBandKind } from '@mes/contracts';
import type { AppContext } from '../../app-context';
import { device, deviceCycle, deviceLatest, product, productProgram } from '../../platform/db/schema';
import { rowsOfSameTenant, tenantRows, tenantScope } from '../../platform/tenancy/tenant-scope';
import type { ModelListWindow } from './iot-range';

/** The device and field a chart shows. */
export interface BandKey {
  tenantId: string;
  deviceCode: string;
  productId: string;
  field: string;
}

/** Cycles drawn at most in one range: a 7-day chart of a device running a cycle every 10 minutes. */
const MAX_CYCLES = 1_000;

type ProgramRow = Pick<
  typeof productProgram.$inferSelect,
  | 'programNo'
  | 'programName'
  | 'temperatureField'
  | 'plateauMin'
  | 'plateauMax'
  | 'pressureField'
  | 'pressureMin'
  | 'pressureMax'
  | 'concentrationField'
  | 'minConcentration'
>;

const programColumns = {
  programNo: productProgram.programNo,
  programName: productProgram.programName,
  temperatureField: productProgram.temperatureField,
  plateauMin: productProgram.plateauMin,
  plateauMax: productProgram.plateauMax,
  pressureField: productProgram.pressureField,
  pressureMin: productProgram.pressureMin,
  pressureMax: productProgram.pressureMax,
  concentrationField: productProgram.concentrationField,
  minConcentration: productProgram.minConcentration,
};

const decimal = (value: string | null) => (value === null || value === '' ? null : Number(value));

/**
 * The limit of a program's profile that concerns `field`: the plateau band of its temperature
 * field, the pressure band of its pressure field, the minimum of its concentration field; none
 * when the field is none of them or the program gives no figure for it.
 */
export function bandOf(
  program: ProgramRow,
  field: string,
): { kind: ProgramBandKind; min: number | null; max: number | null } | undefined {
  const pick = (kind: ProgramBandKind, min: number | null, max: number | null) =>
    min === null && max === null ? undefined : { kind, min, max };
  if (program.temperatureField === field)
    return pick('plateau', decimal(program.plateauMin), decimal(program.plateauMax));
  if (program.pressureField === field)
    return pick('pressure', decimal(program.pressureMin), decimal(program.pressureMax));
  if (program.concentrationField === field) return pick('concentration', decimal(program.minConcentration), null);
  return undefined;
}

/**
 * The bands of the programs that ran within the window (docs/devices.md "Limits on the charts"):
 * each finished cycle of the device overlapping it, with its program's band for the field over
 * the cycle's span, and, while the device disinfects, the program it runs now from the end of its
 * last finished cycle to the end of the window. Three indexed reads: the cycles (index
 * `(tenant_id, device_code, start_time)`), the last cycle's end, the running program.
 */
export async function programBands(ctx: AppContext, key: BandKey, window: ModelListWindow): Promise<ProgramBand[]> {
  const scope = tenantScope(ctx.db, key.tenantId);
  const from = new Date(window.from);
  const to = new Date(window.to);
  const cycles = await ctx.db
    .select({ startTime: deviceCycle.startTime, endTime: deviceCycle.endTime, ...programColumns })
    .from(deviceCycle)
    .innerJoin(
      productProgram,
      rowsOfSameTenant(
        productProgram,
        deviceCycle,
        eq(productProgram.productId, key.productId),
        eq(productProgram.programNo, deviceCycle.programNo),
      ),
    )
    .where(
      tenantRows(
        deviceCycle,
        key.tenantId,
        eq(deviceCycle.deviceCode, key.deviceCode),
        lte(deviceCycle.startTime, to),
        gte(deviceCycle.endTime, from),
      ),
    )
    .orderBy(asc(deviceCycle.startTime))
    .limit(MAX_CYCLES);
  const bands: ProgramBand[] = [];
  for (const cycle of cycles) {
    const band = bandOf(cycle, key.field);
    if (!band || !cycle.startTime || !cycle.endTime) continue;
    bands.push({
      programNo: cycle.programNo,
      programName: cycle.programName,
      ...band,
      from: Math.max(window.from, cycle.startTime.getTime()),
      to: Math.min(window.to, cycle.endTime.getTime()),
      running: false,
    });
  }

  // The program running now: the product names the field holding its number, and the device's
  // derived run state says a cycle is under way.
  const [now] = await ctx.db
    .select({
      runState: device.runState,
      program: sql<unknown>`${deviceLatest.latest} -> nullif(${product.programField}, '') -> 'v'`,
    })
    .from(device)
    .innerJoin(product, rowsOfSameTenant(product, device, eq(product.id, device.productId)))
    .leftJoin(deviceLatest, rowsOfSameTenant(deviceLatest, device, eq(deviceLatest.deviceCode, device.deviceCode)))
    .where(tenantRows(device, key.tenantId, eq(device.deviceCode, key.deviceCode)))
    .limit(1);
  if (now?.runState !== DeviceRunState.disinfecting || typeof now.program !== 'number') return bands;
  const [program] = await scope
    .select(productProgram, programColumns)
    .where(and(eq(productProgram.productId, key.productId), eq(productProgram.programNo, now.program)))
    .limit(1);
  const band = program && bandOf(program, key.field);
  if (!band) return bands;
  // The running cycle began after the last one the device finished.
  const [last] = await scope
    .select(deviceCycle, { endTime: deviceCycle.endTime })
    .where(eq(deviceCycle.deviceCode, key.deviceCode))
    .orderBy(desc(deviceCycle.endTime))
    .limit(1);
  const start = Math.max(window.from, last?.endTime?.getTime() ?? window.from);
  if (start < window.to)
    bands.push({
      programNo: program.programNo,
      programName: program.programName,
      ...band,
      from: start,
      to: window.to,
      running: true,
    });
  return bands;
}

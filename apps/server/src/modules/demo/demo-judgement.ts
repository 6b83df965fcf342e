import { eq, sql } from 'drizzle-orm';
import { formatDateTime, MaintenanceCheckResult, MaintenanceResult, UNHANDLED_WARNING_STATUSES } from '@mes/contracts';
import { warning } from '../../platform/db/schema';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { handleWarnings } from '../warning/warning-routes';
import { disinfectionRecordChain, recordsFromCycles } from '../business/disinfection/records-from-cycles';
import { postDueNotices } from '../maintenance/due-notices';
import {
  DEMO_JUDGED_DEVICE,
  DEMO_MAINTENANCE_DONE,
  DEMO_MAINTENANCE_PLANS,
  DEMO_PROFILES,
  DEMO_STERILISER,
  JUDGED_SPAN_MS,
} from './demo-data';
import { message, replayMessages, type Timed } from './demo-history';
import type { DemoSession } from './demo-session';
import { bdTestsForNewDays } from './demo-verification';

/**
 * What the demo shows of issue 28 (docs/demo.md "Judged cycles and maintenance"): the programs'
 * validated profiles, the judged steriliser's last three hours (a cycle that passes, one that
 * fails on its hold time, one running now), and a maintenance plan with devices due.
 *
 * The profiles are entered after the month's records: the month's cycles were made before the
 * programs were validated and stay "not judged" (their points are 5-minute samples of the last day
 * only, which no profile could pass), while every cycle since is judged from a probe sampling every
 * 10 s, as a validated steriliser's is.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** The probe's sampling during the judged cycles (well inside the judgement's 60-s gap limit). */
const SAMPLE_S = 10;

/** One phase of a steam cycle: its phase number (the model's enumeration), length and end values. */
interface Phase {
  phase: number;
  seconds: number;
  /** Temperature (℃) and pressure (kPa gauge) at the phase's end; linear from the previous end. */
  temperature: number;
  pressure: number;
}

/**
 * Program 1 (134℃ 标准) as the chamber probe sees it: three vacuum/steam pulses, heating to
 * 134 ℃ at 210 kPa, the hold, exhaust and vacuum drying. `hold` is the time inside the plateau;
 * with `sagAfter` the steam supply sags after that many seconds of the hold and the chamber
 * falls to 132 ℃ for the rest of it (the controller, timing its own hold, still reports a pass).
 */
function steamCycle(hold: number, sagAfter?: number): Phase[] {
  const phases: Phase[] = [];
  for (let pulse = 0; pulse < 3; pulse++)
    phases.push(
      { phase: 1, seconds: 60, temperature: 60 + pulse * 10, pressure: -80 },
      { phase: 1, seconds: 60, temperature: 100 + pulse * 4, pressure: 100 },
    );
  phases.push({ phase: 2, seconds: 180, temperature: 134.4, pressure: 210 });
  if (sagAfter === undefined) phases.push({ phase: 3, seconds: hold, temperature: 134.8, pressure: 212 });
  else
    phases.push(
      { phase: 3, seconds: sagAfter, temperature: 134.5, pressure: 211 },
      { phase: 3, seconds: 30, temperature: 132.1, pressure: 202 },
      { phase: 3, seconds: hold - sagAfter - 30, temperature: 132.4, pressure: 203 },
    );
  phases.push(
    { phase: 4, seconds: 120, temperature: 105, pressure: 0 },
    { phase: 5, seconds: 600, temperature: 82, pressure: -80 },
  );
  return phases;
}

interface Sample {
  at: number;
  phase: number;
  remaining: number;
  temperature: number;
  pressure: number;
}

/**
 * The probe's samples every {@link SAMPLE_S} s from `start` until the cycle ends or `until`
 * (the cycle running now). The plateau's small ripple is a fixed pattern: the demo is the same
 * on every run.
 */
function samples(phases: readonly Phase[], start: number, until = Infinity): Sample[] {
  const total = phases.reduce((sum, p) => sum + p.seconds, 0);
  const out: Sample[] = [];
  for (let s = 0; s <= total && start + s * SECOND <= until; s += SAMPLE_S) {
    let from = { temperature: 40, pressure: 0 };
    let elapsed = 0;
    let current = phases[phases.length - 1] as Phase;
    let fraction = 1;
    for (const p of phases) {
      if (s <= elapsed + p.seconds) {
        current = p;
        fraction = p.seconds ? (s - elapsed) / p.seconds : 1;
        break;
      }
      elapsed += p.seconds;
      from = p;
    }
    const ripple = current.phase === 3 ? [0, 0.2, 0.1, -0.1, 0.15, 0.05][(s / SAMPLE_S) % 6]! : 0;
    out.push({
      at: start + s * SECOND,
      phase: s === total ? 0 : current.phase,
      remaining: total - s,
      temperature: Number((from.temperature + (current.temperature - from.temperature) * fraction + ripple).toFixed(1)),
      pressure: Number((from.pressure + (current.pressure - from.pressure) * fraction).toFixed(1)),
    });
  }
  return out;
}

const telemetry = (s: DemoSession, device: { deviceCode: string; clientId: string }, x: Sample): Timed =>
  message(s.tenantId, device, 'telemetry', x.at, {
    ts: x.at,
    values: {
      program: 1,
      phase: x.phase,
      remainingSeconds: x.remaining,
      chamberTemp: x.temperature,
      chamberPressure: x.pressure,
      doorClosed: x.phase !== 0,
      faultCode: 0,
    },
  });

/** A finished cycle: its samples, then the cycle message the controller publishes (it says pass). */
function finished(s: DemoSession, device: { deviceCode: string; clientId: string }, start: number, phases: Phase[]) {
  const points = samples(phases, start);
  const end = (points[points.length - 1] as Sample).at;
  const hold = phases.filter((p) => p.phase === 3).reduce((sum, p) => sum + p.seconds, 0);
  const held = points.filter((p) => p.phase === 3);
  return [
    ...points.map((x) => telemetry(s, device, x)),
    message(s.tenantId, device, 'cycle', end, {
      ts: end,
      program: 1,
      programName: DEMO_STERILISER.programs[0]?.programName,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      durationSeconds: Math.round((end - start) / SECOND),
      result: 'pass',
      faultCode: 0,
      targetTemperature: 134,
      maxTemperature: Math.max(...points.map((p) => p.temperature)),
      minHoldTemperature: Math.min(...held.map((p) => p.temperature)),
      maxPressure: Math.max(...points.map((p) => p.pressure)),
      holdSeconds: hold,
    }),
  ];
}

/** The judged steriliser's last three hours, oldest first (relative to now). */
export function judgedMessages(s: DemoSession, device: { deviceCode: string; clientId: string }, now: number): Timed[] {
  const running = samples(steamCycle(240), now - 10 * MINUTE, now);
  return [
    // Passes: 240 s in the band, F0 far above 15 min, pressure 210–213 kPa.
    ...finished(s, device, now - 170 * MINUTE, steamCycle(240)),
    // Fails on the hold: 120 s in the band, then 132 ℃ for the rest of the controller's 240 s.
    ...finished(s, device, now - 115 * MINUTE, steamCycle(240, 120)),
    // Passes as well: a second load the packs screens can release.
    ...finished(s, device, now - 70 * MINUTE, steamCycle(240)),
    // Running now: 10 minutes in, in its hold (phase 3, 灭菌), 15 minutes left.
    ...running.map((x) => telemetry(s, device, x)),
  ];
}

interface ProgramRow extends Record<string, unknown> {
  id: string;
  programNo: number;
  lethalityKind: string;
}

/**
 * The validated profiles on the demo products' programs, through the product's own submit (its
 * program rows by id, every other row left as stored). A program that already has a profile is
 * left alone: an administrator's later edit stands.
 */
export async function profilesStep(s: DemoSession): Promise<void> {
  for (const [productCode, profiles] of Object.entries(DEMO_PROFILES)) {
    const id = s.products.get(productCode);
    if (!id) continue;
    const detail = await s.admin.get<{ programs?: ProgramRow[] }>('/basic/product/detail', { id });
    const programs = detail.programs ?? [];
    const missing = programs.filter((p) => profiles[p.programNo] && (p.lethalityKind ?? 'none') === 'none');
    if (!missing.length) continue;
    await s.admin.post('/basic/product/submit', {
      id,
      programs: programs.map((p) => ({
        id: p.id,
        programNo: p.programNo,
        programName: p.programName,
        durationMinutes: p.durationMinutes,
        targetTemperature: p.targetTemperature,
        targetConcentration: p.targetConcentration,
        lethalityKind: p.lethalityKind,
        temperatureField: p.temperatureField,
        plateauMin: p.plateauMin,
        plateauMax: p.plateauMax,
        minHoldSeconds: p.minHoldSeconds,
        pressureField: p.pressureField,
        pressureMin: p.pressureMin,
        pressureMax: p.pressureMax,
        concentrationField: p.concentrationField,
        minConcentration: p.minConcentration,
        minLethality: p.minLethality,
        ...(missing.includes(p) ? profiles[p.programNo] : {}),
      })),
    });
    s.made.profiles = (s.made.profiles ?? 0) + missing.length;
  }
}

/**
 * The judged steriliser's last hours through MQTT ingestion, then their records through the
 * records job's function, which judges each cycle against the profiles just entered. Once: only
 * with the history made by this run.
 */
export async function judgedStep(s: DemoSession): Promise<void> {
  if (!s.historyMade) return;
  const device = s.devices.get(DEMO_JUDGED_DEVICE);
  if (!device) return;
  // The step's own time, not the seeding's start: the month before it takes a minute or more, and
  // the cycle running now should have its 15 minutes still ahead when the seeding ends. The month
  // of this device ended three hours before the seeding's start, so nothing overlaps.
  const now = Math.max(s.options.now, Date.now());
  // Before its validated runs its open warnings were dealt with: an unhandled critical one (a
  // failed cycle of its last day) would otherwise hold it in 故障 (run-state.ts), not 消毒中.
  const open = await tenantScope(s.ctx.db, s.tenantId)
    .select(warning, { id: warning.id })
    .where(
      eq(warning.deviceCode, DEMO_JUDGED_DEVICE),
      sql`${warning.status} in (${sql.join(
        UNHANDLED_WARNING_STATUSES.map((v) => sql`${v}`),
        sql`, `,
      )})`,
    );
  if (open.length)
    await s.ctx.db.transaction((tx) =>
      handleWarnings(
        tx,
        s.tenantId,
        undefined,
        open.map((w) => String(w.id)),
        {
          result: '故障已排除,复测合格后恢复使用',
          userId: s.adminUserId,
          userName: '管理员',
          at: new Date(now - JUDGED_SPAN_MS),
        },
      ),
    );
  s.made.warningsHandled = (s.made.warningsHandled ?? 0) + open.length;
  const timed = judgedMessages(s, { deviceCode: DEMO_JUDGED_DEVICE, clientId: device.clientId }, now);
  const replayed = await replayMessages(s.ctx, timed, now - JUDGED_SPAN_MS, now);
  s.made.messages = (s.made.messages ?? 0) + replayed.stored;
  const made = await recordsFromCycles(s.ctx, disinfectionRecordChain(), s.tenantId, JUDGED_SPAN_MS + 3_600_000);
  s.made.judgedRecords = (s.made.judgedRecords ?? 0) + made;
  await bdTestsForNewDays(s, DEMO_JUDGED_DEVICE);
}

/**
 * The sterilisers' maintenance plan, each steriliser's last completed maintenance (so one is
 * overdue, one due soon) and the due notices the sweep posts for them, at once rather than at
 * its next 10-minute run. The plan is found by name; the records are made once, with the history.
 */
export async function maintenanceStep(s: DemoSession): Promise<void> {
  const plans = await s.admin.rows<{ id: string; planName: string; productId: string }>('/basic/maintenance-plan/list');
  const planIds = new Map<string, string>();
  for (const p of plans) planIds.set(p.planName, String(p.id));
  for (const [i, plan] of DEMO_MAINTENANCE_PLANS.entries()) {
    if (planIds.has(plan.planName)) continue;
    const id = await s.admin.post<string>('/basic/maintenance-plan/submit', {
      planName: plan.planName,
      productId: s.products.get(plan.productCode),
      intervalCycles: plan.intervalCycles,
      intervalDays: plan.intervalDays,
      noticeCycles: plan.noticeCycles,
      noticeDays: plan.noticeDays,
      sort: i + 1,
      remark: '演示保养计划',
      checks: plan.checks.map((c) => ({ ...c })),
    });
    planIds.set(plan.planName, String(id));
    s.made.maintenancePlans = (s.made.maintenancePlans ?? 0) + 1;
  }
  if (!s.historyMade) return;
  const plan = DEMO_MAINTENANCE_PLANS[0];
  const planId = plan && planIds.get(plan.planName);
  if (!plan || !planId) return;
  for (const done of DEMO_MAINTENANCE_DONE) {
    const device = s.devices.get(done.deviceCode);
    if (!device) continue;
    const end = s.options.now - done.daysAgo * 86_400_000;
    await s.admin.post('/basic/maintenance-record/submit', {
      deviceId: device.id,
      planId,
      technician: done.technician,
      startTime: formatDateTime(new Date(end - 90 * MINUTE)),
      endTime: formatDateTime(new Date(end)),
      result: MaintenanceResult.pass,
      remark: '演示保养记录',
      checks: plan.checks.map((c) => ({ checkName: c.checkName, result: MaintenanceCheckResult.ok, note: '' })),
      parts: [{ partName: '门密封圈', partNo: 'ST-B23-G01', quantity: 1 }],
    });
    s.made.maintenanceRecords = (s.made.maintenanceRecords ?? 0) + 1;
  }
  s.made.maintenanceNotices = (s.made.maintenanceNotices ?? 0) + (await postDueNotices(s.ctx));
}

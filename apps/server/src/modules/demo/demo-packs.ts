import { and, asc, eq } from 'drizzle-orm';
import {
  LoadStatus,
  PackState,
  RecallAction,
  VerificationResult,
  VerificationType,
  type RecallAction as Action,
} from '@mes/contracts';
import { article, car, line, load, pack, packMove, recallPack, verificationRecord } from '../../platform/db/schema';
import { nextId } from '../../platform/db/ids';
import { tenantScope } from '../../platform/tenancy/tenant-scope';
import { actOnRecalledPacks, recallPacksOfRecord } from '../business/verification/verification-recall';
import { DEMO_BASES, DEMO_STERILISER, DEMO_TENANT_DEVICES } from './demo-data';
import type { DemoSession } from './demo-session';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PERSON = '管理员';

/** A day in the product's zone (UTC+8), as packs' sterile and expiry dates are kept. */
const localDay = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 10);

/** One step of a demo pack's life: the state it moved to, when, and where. */
interface Step {
  state: PackState;
  at: number;
  deptId?: string | null;
  lineId?: string | null;
  carId?: string | null;
  loadId?: string | null;
  patientCase?: string;
  chairNo?: string;
  clinician?: string;
}

interface DemoPlaces {
  base: string;
  clinics: string[];
  lineId: string | null;
  carId: string | null;
}

/**
 * The demo's packs (docs/demo.md, docs/packs.md): a pack in every state of the loop (and one
 * expired, one past its validity the expiry sweep will catch), each with the history of moves that
 * brought it there; and, when the verification step made the month's failed biological indicator,
 * the packs of that steriliser's loads before it, recalled, with two of them handled: a recall in
 * progress. Made once: a tenant that has packs keeps them.
 */
export async function demoPacksStep(s: DemoSession): Promise<void> {
  const scope = tenantScope(s.ctx.db, s.tenantId);
  const [any] = await scope.select(pack, { id: pack.id }).where().limit(1);
  if (any) return;
  const articles = await scope
    .select(article, { id: article.id, code: article.code })
    .where()
    .orderBy(asc(article.code));
  const sterilisers = DEMO_TENANT_DEVICES.filter((d) => d.productCode === DEMO_STERILISER.productCode)
    .map((d) => s.devices.get(d.deviceCode)?.id)
    .filter((id): id is string => !!id);
  if (!articles.length || !sterilisers.length) return;
  const [firstLine] = await scope.select(line, { id: line.id }).where().orderBy(asc(line.id)).limit(1);
  const [firstCar] = await scope.select(car, { id: car.id }).where().orderBy(asc(car.id)).limit(1);
  const base = DEMO_BASES[0];
  const places: DemoPlaces = {
    base: s.depts.get(base?.deptName ?? '') ?? s.rootDeptId,
    clinics: (base?.clinics ?? []).map((c) => s.depts.get(c.deptName)).filter((id): id is string => !!id),
    lineId: firstLine ? String(firstLine.id) : null,
    carId: firstCar ? String(firstCar.id) : null,
  };
  if (!places.clinics.length) places.clinics = [places.base];
  const now = s.options.now;
  let n = 0;
  const articleOf = () => String(articles[n % articles.length]?.id);

  const newLoad = async (deviceId: string, createdAt: number, released: boolean) => {
    const id = nextId();
    await scope.insert(load).values({
      id,
      loadNo: `LD${localDay(createdAt).replace(/-/g, '')}${String(Number(id) % 1000).padStart(3, '0')}`,
      deviceId,
      state: released ? LoadStatus.released : LoadStatus.open,
      releaseUserName: released ? PERSON : '',
      releaseTime: released ? new Date(createdAt + 2 * HOUR) : null,
      remark: '演示批次',
      createTime: new Date(createdAt),
      updateTime: new Date(createdAt),
      createUser: s.adminUserId,
      updateUser: s.adminUserId,
    });
    return id;
  };

  /** A pack made at `made`, moved through `steps` (each a history row), left where the last one put it. */
  const newPack = async (made: number, steps: readonly Step[], sterile?: { day: string; validDays: number }) => {
    n += 1;
    const id = nextId();
    const code = `DP${String(n).padStart(4, '0')}`;
    const last = { deptId: null as string | null, lineId: null as string | null, carId: null as string | null };
    let loadId: string | null = null;
    let patientCase = '';
    for (const step of steps) {
      if (step.deptId !== undefined) last.deptId = step.deptId;
      if (step.lineId !== undefined) last.lineId = step.lineId;
      if (step.carId !== undefined) last.carId = step.carId;
      if (step.loadId) loadId = step.loadId;
      if (step.state === PackState.inUse) patientCase = step.patientCase ?? '';
      if (step.state === PackState.awaitingPickup) patientCase = '';
    }
    const final = steps.at(-1);
    const expiry = sterile ? localDay(Date.parse(`${sterile.day}T00:00:00Z`) + sterile.validDays * DAY) : null;
    await scope.insert(pack).values({
      id,
      code,
      articleId: articleOf(),
      state: final?.state ?? PackState.awaitingPickup,
      ...last,
      loadId,
      patientCase,
      sterileDate: sterile?.day ?? null,
      expiryDate: expiry,
      lastMoveTime: new Date(final?.at ?? made),
      remark: '',
      createTime: new Date(made),
      updateTime: new Date(final?.at ?? made),
      createUser: s.adminUserId,
      updateUser: s.adminUserId,
    });
    let from: PackState | null = null;
    const moves = [{ state: PackState.awaitingPickup, at: made } as Step, ...steps];
    await scope.insert(packMove).values(
      ...moves.map((m, i) => {
        const row = {
          id: nextId(),
          packId: id,
          packCode: code,
          fromState: i === 0 ? null : from,
          toState: m.state,
          moveTime: new Date(m.at),
          userName: PERSON,
          deptId: m.deptId ?? null,
          lineId: m.lineId ?? null,
          carId: m.carId ?? null,
          loadId: m.loadId ?? null,
          patientCase: m.state === PackState.inUse ? (m.patientCase ?? '') : '',
          chairNo: m.chairNo ?? '',
          clinician: m.clinician ?? '',
          remark: i === 0 ? '建包' : '',
          createUser: s.adminUserId,
          updateUser: s.adminUserId,
        };
        from = m.state;
        return row;
      }),
    );
    s.made.packs = (s.made.packs ?? 0) + 1;
    return id;
  };

  /** The loop from a pick-up at the clinic at `start` to `upTo`, through the load. */
  const loop = (start: number, clinic: string, loadId: string | null, upTo: PackState, patient = ''): Step[] => {
    const all: Step[] = [
      { state: PackState.pickedUp, at: start, deptId: clinic, lineId: places.lineId, carId: places.carId },
      { state: PackState.cleaning, at: start + 2 * HOUR, deptId: places.base, lineId: null, carId: null },
      { state: PackState.cleaned, at: start + 3 * HOUR },
      { state: PackState.sterilising, at: start + 4 * HOUR, loadId },
      { state: PackState.awaitingReview, at: start + 5 * HOUR },
      { state: PackState.sterile, at: start + 6 * HOUR },
      { state: PackState.delivered, at: start + 20 * HOUR, deptId: clinic, lineId: places.lineId, carId: places.carId },
      {
        state: PackState.inUse,
        at: start + 26 * HOUR,
        deptId: clinic,
        patientCase: patient,
        chairNo: '2',
        clinician: '李医生',
      },
      { state: PackState.awaitingPickup, at: start + 28 * HOUR, deptId: clinic },
    ];
    const upToIndex = all.findIndex((st) => st.state === upTo);
    return all.slice(0, upToIndex + 1);
  };
  const clinic = (i: number) => places.clinics[i % places.clinics.length] as string;
  const validDays = 180;

  // A pack in every state of today's loop.
  const steriliser = sterilisers[sterilisers.length - 1] as string;
  const released = await newLoad(steriliser, now - 30 * HOUR, true);
  const open = await newLoad(steriliser, now - 2 * HOUR, false);
  const day = localDay(now - 24 * HOUR);
  const start = now - 36 * HOUR;
  for (const [i, state] of [PackState.pickedUp, PackState.cleaning, PackState.cleaned].entries())
    await newPack(start - DAY, loop(now - 4 * HOUR, clinic(i), null, state));
  await newPack(start - DAY, loop(now - 6 * HOUR, clinic(0), open, PackState.sterilising));
  await newPack(start - DAY, loop(now - 7 * HOUR, clinic(1), open, PackState.awaitingReview));
  for (const state of [PackState.sterile, PackState.delivered] as const)
    await newPack(start - DAY, loop(start, clinic(n), released, state), { day, validDays });
  await newPack(start - DAY, loop(start - 12 * HOUR, clinic(2), released, PackState.inUse, 'BL20261101'), {
    day,
    validDays,
  });
  await newPack(start - DAY, loop(start - 12 * HOUR, clinic(0), released, PackState.awaitingPickup, 'BL20261102'), {
    day,
    validDays,
  });
  // Expired: sterilised 40 days ago in a 30-day paper bag; one moved already, one the sweep will find.
  const old = await newLoad(steriliser, now - 40 * DAY, true);
  const oldDay = localDay(now - 40 * DAY);
  await newPack(
    now - 41 * DAY,
    [
      ...loop(now - 40 * DAY - 6 * HOUR, clinic(1), old, PackState.delivered),
      { state: PackState.expired, at: now - 9 * DAY },
    ],
    {
      day: oldDay,
      validDays: 30,
    },
  );
  await newPack(now - 41 * DAY, loop(now - 40 * DAY - 6 * HOUR, clinic(2), old, PackState.delivered), {
    day: oldDay,
    validDays: 30,
  });

  // The recall of the month's failed biological indicator (verification step).
  const [failed] = await scope
    .select(verificationRecord, {
      id: verificationRecord.id,
      deviceId: verificationRecord.deviceId,
      testTime: verificationRecord.testTime,
    })
    .where(
      and(
        eq(verificationRecord.verificationType, VerificationType.biological),
        eq(verificationRecord.result, VerificationResult.fail),
        eq(verificationRecord.superseded, false),
      ),
    )
    .orderBy(asc(verificationRecord.testTime))
    .limit(1);
  if (!failed?.deviceId || !failed.testTime) return;
  const test = failed.testTime.getTime();
  const recalled: string[] = [];
  for (const [i, hoursBefore] of [52, 30].entries()) {
    const loadAt = test - hoursBefore * HOUR;
    const loadId = await newLoad(String(failed.deviceId), loadAt, true);
    const sterileDay = localDay(loadAt);
    const ends: [PackState, string][] =
      i === 0
        ? [
            [PackState.awaitingPickup, `BL2026${1000 + n}`],
            [PackState.inUse, `BL2026${1001 + n}`],
            [PackState.delivered, ''],
          ]
        : [
            [PackState.sterile, ''],
            [PackState.delivered, ''],
            [PackState.inUse, `BL2026${1002 + n}`],
          ];
    for (const [j, [state, patient]] of ends.entries())
      recalled.push(
        await newPack(loadAt - DAY, loop(loadAt - 4 * HOUR, clinic(i + j), loadId, state, patient), {
          day: sterileDay,
          validDays,
        }),
      );
  }
  const writer = { tenantId: s.tenantId, userId: s.adminUserId };
  const recallAt = new Date(test + 10 * MINUTE);
  await s.ctx.db.transaction((tx) => recallPacksOfRecord(tx, writer, String(failed.id), PERSON, recallAt));
  // Two packs handled, the rest still to do: the recall is in progress.
  const handled: [number, Action, string][] = [
    [1, RecallAction.patientNotified, '已电话通知患者复诊'],
    [3, RecallAction.retrieved, '已从无菌物品存放区收回'],
  ];
  for (const [index, action, remark] of handled) {
    const packId = recalled[index];
    if (!packId) continue;
    await s.ctx.db.transaction(async (tx) => {
      const [row] = await tenantScope(tx, s.tenantId)
        .select(recallPack, { id: recallPack.id })
        .where(eq(recallPack.packId, packId));
      if (row)
        await actOnRecalledPacks(
          tx,
          writer,
          PERSON,
          { ids: [String(row.id)], action, remark },
          new Date(test + 3 * HOUR),
        );
    });
  }
  s.made.recalledPacks = recalled.length;
}

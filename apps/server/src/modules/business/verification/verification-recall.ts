import { asc, desc, eq, gt, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { anyOf } from '../../../platform/db/any-of';
import {
  formatDateTime,
  INDICATOR_WARNING_TYPE,
  isPackState,
  PACK_STATE_LABELS,
  packMoveAllowed,
  PackState,
  RECALL_ACTION_LABELS,
  RECALL_REASON_LABELS,
  RecallReason,
  RecallSource,
  RecallState,
  VerificationResult,
  VerificationType,
  WarningLevel,
  type RecallAction,
  type RecalledLoad,
  type RecalledPack,
  type RecallView,
  type ReportData,
} from '@mes/contracts';
import type { AuthContext } from '../../../platform/auth/request-auth';
import type { Tx } from '../../../platform/audit/operation-audit';
import {
  article,
  car,
  dept,
  device,
  deviceCycle,
  disinfectionRecord,
  line,
  load,
  pack,
  packMove,
  recall,
  recallPack,
  recordRecall,
  verificationRecord,
} from '../../../platform/db/schema';
import { badRequest, notFound } from '../../../platform/http/errors';
import { movePacks, NO_PLACE } from '../packs/pack-moves';
import { nextId } from '../../../platform/db/ids';
import { txQueryable } from '../../../platform/jobs/transaction-executor';
import { raiseWarning } from '../../telemetry/alarm-store';
import { publishChanges } from '../../telemetry/publish-changes';
import { tenantScope, type Queryable } from '../../../platform/tenancy/tenant-scope';

/** The verification record a recall is made from, as stored. */
interface FailedTest {
  id: string;
  recordNo: string;
  deviceId: string | null;
  deviceCode: string;
  deptId: string | null;
  testTime: Date;
}

/**
 * The loads a failed biological indicator recalls (WS 310.3: every item since the last pass):
 * the current versions of the device's disinfection records that ended after the device's last
 * passing biological test before this one (none: every earlier record) and not after this test.
 */
async function loadsToRecall(tx: Queryable, tenantId: string, failed: FailedTest) {
  const scope = tenantScope(tx, tenantId);
  const [lastPass] = await scope
    .select(verificationRecord, { testTime: verificationRecord.testTime })
    .where(
      eq(verificationRecord.deviceCode, failed.deviceCode),
      eq(verificationRecord.verificationType, VerificationType.biological),
      eq(verificationRecord.result, VerificationResult.pass),
      eq(verificationRecord.superseded, false),
      lt(verificationRecord.testTime, failed.testTime),
    )
    .orderBy(desc(verificationRecord.testTime))
    .limit(1);
  return scope
    .select(disinfectionRecord, { id: disinfectionRecord.id, recordNo: disinfectionRecord.recordNo })
    .where(
      eq(disinfectionRecord.deviceCode, failed.deviceCode),
      eq(disinfectionRecord.superseded, false),
      lte(disinfectionRecord.endTime, failed.testTime),
      lastPass?.testTime ? gt(disinfectionRecord.endTime, lastPass.testTime) : undefined,
    )
    .orderBy(asc(disinfectionRecord.endTime));
}

/** The failed tests that recall packs, and why the recall says it was made. */
const REASON_OF_TYPE = new Map<number, RecallReason>([
  [VerificationType.biological, RecallReason.biological],
  [VerificationType.bowieDick, RecallReason.bowieDick],
]);

/** Whose rows and who writes them: a request's caller, a job, or the demo seeding as its administrator. */
export type Writer = Pick<AuthContext, 'tenantId' | 'userId'>;

/**
 * Where and on whom each pack was used after it went into its (recalled) load: the first `inUse`
 * move after its last move into that load. A pack with no such history (made before moves were
 * kept) that is in use now counts as used where it is.
 */
async function usesOf(
  tx: Queryable,
  tenantId: string,
  packs: readonly { id: string; loadId: string | null; state: number; deptId: string | null; patientCase: string }[],
): Promise<Map<string, { deptId: string | null; patientCase: string }>> {
  const moves = await tenantScope(tx, tenantId)
    .select(packMove, {
      packId: packMove.packId,
      toState: packMove.toState,
      loadId: packMove.loadId,
      deptId: packMove.deptId,
      patientCase: packMove.patientCase,
    })
    .where(
      inArray(
        packMove.packId,
        packs.map((p) => p.id),
      ),
      inArray(packMove.toState, [PackState.sterilising, PackState.inUse]),
    )
    .orderBy(asc(packMove.moveTime), asc(packMove.id));
  const uses = new Map<string, { deptId: string | null; patientCase: string }>();
  for (const p of packs) {
    const own = moves.filter((m) => String(m.packId) === p.id);
    let into = -1;
    own.forEach((m, i) => {
      if (m.toState === PackState.sterilising && String(m.loadId) === String(p.loadId)) into = i;
    });
    const used = own.slice(into + 1).find((m) => m.toState === PackState.inUse);
    if (used) uses.set(p.id, { deptId: used.deptId, patientCase: used.patientCase });
    else if (p.state === PackState.inUse) uses.set(p.id, { deptId: p.deptId, patientCase: p.patientCase });
  }
  return uses;
}

/** Where a recall comes from and what it says of itself (`mes_recall`'s head). */
export interface RecallHead {
  source: RecallSource;
  sourceId: string;
  sourceNo: string;
  reason: RecallReason;
  deviceId: string;
  deviceCode: string;
}

/**
 * Opens the recall `head` names (one per source record number: a correction of the record, and a
 * later call for the same record, add the packs not in it yet) with every pack of these loads,
 * each with where it is at the moment of the recall and where and on whom it was used. `into`
 * names an existing recall to add to instead. No packs, no recall. Answers how many packs of the
 * loads the recall names and how many of them it names since this call.
 */
export async function openRecall(
  tx: Tx,
  auth: Writer,
  head: RecallHead,
  loads: readonly { id: string; loadNo: string }[],
  person: string,
  now: Date,
  into?: string,
): Promise<{ packs: number; added: number }> {
  const none = { packs: 0, added: 0 };
  if (!loads.length) return none;
  const scope = tenantScope(tx, auth.tenantId);
  const loadNo = new Map(loads.map((l) => [String(l.id), l.loadNo]));
  const packs = (
    await tx
      .select({
        id: pack.id,
        code: pack.code,
        loadId: pack.loadId,
        state: pack.state,
        deptId: pack.deptId,
        lineId: pack.lineId,
        carId: pack.carId,
        patientCase: pack.patientCase,
        articleName: article.name,
      })
      .from(pack)
      .leftJoin(article, scope.rows(article, eq(article.id, pack.articleId)))
      .where(scope.rows(pack, inArray(pack.loadId, [...loadNo.keys()])))
      .orderBy(asc(pack.code))
  ).map((p) => ({ ...p, id: String(p.id) }));
  if (!packs.length) return none;
  if (!into)
    await scope
      .insert(recall)
      .values({
        id: nextId(),
        ...head,
        state: RecallState.open,
        recallTime: now,
        recallUserName: person,
        closeUserName: '',
        createUser: auth.userId,
        updateUser: auth.userId,
      })
      .onConflictDoNothing();
  const [made] = into
    ? [{ id: into }]
    : await scope
        .select(recall, { id: recall.id })
        .where(eq(recall.source, head.source), eq(recall.sourceNo, head.sourceNo));
  if (!made) return none;
  const uses = await usesOf(tx, auth.tenantId, packs);
  const added = await scope
    .insert(recallPack)
    .values(
      ...packs.map((p) => ({
        id: nextId(),
        recallId: made.id,
        packId: p.id,
        packCode: p.code,
        articleName: p.articleName ?? '',
        loadId: p.loadId,
        loadNo: p.loadId ? (loadNo.get(String(p.loadId)) ?? '') : '',
        state: p.state,
        deptId: p.deptId,
        lineId: p.lineId,
        carId: p.carId,
        usedDeptId: uses.get(p.id)?.deptId ?? null,
        patientCase: uses.get(p.id)?.patientCase ?? '',
        actionUserName: '',
        remark: '',
        createUser: auth.userId,
        updateUser: auth.userId,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: recallPack.id });
  return { packs: packs.length, added: added.length };
}

/**
 * The recall of a failed test: every pack of the device's loads sterilised after the last
 * passing test of the same type and not after this one. A load is placed in time by its cycle's
 * end (when it was sterilised), by its creation only while it has no cycle: a load assembled
 * before the last pass but run after it was not covered by that pass.
 */
export async function recallPacks(
  tx: Tx,
  auth: Writer,
  failed: FailedTest,
  type: number,
  reason: RecallReason,
  person: string,
  now: Date,
): Promise<number> {
  if (!failed.deviceId) return 0;
  const scope = tenantScope(tx, auth.tenantId);
  const [lastPass] = await scope
    .select(verificationRecord, { testTime: verificationRecord.testTime })
    .where(
      eq(verificationRecord.deviceCode, failed.deviceCode),
      eq(verificationRecord.verificationType, type),
      eq(verificationRecord.result, VerificationResult.pass),
      eq(verificationRecord.superseded, false),
      lt(verificationRecord.testTime, failed.testTime),
    )
    .orderBy(desc(verificationRecord.testTime))
    .limit(1);
  const ran = sql<Date>`coalesce(${deviceCycle.endTime}, ${load.createTime})`;
  const loads = await tx
    .select({ id: load.id, loadNo: load.loadNo })
    .from(load)
    .leftJoin(deviceCycle, scope.rows(deviceCycle, eq(deviceCycle.id, load.cycleId)))
    .where(
      scope.rows(
        load,
        eq(load.deviceId, failed.deviceId),
        lte(ran, failed.testTime),
        lastPass?.testTime ? gt(ran, lastPass.testTime) : undefined,
      ),
    );
  const opened = await openRecall(
    tx,
    auth,
    {
      source: RecallSource.verification,
      sourceId: failed.id,
      sourceNo: failed.recordNo,
      reason,
      deviceId: failed.deviceId,
      deviceCode: failed.deviceCode,
    },
    loads.map((l) => ({ id: String(l.id), loadNo: l.loadNo })),
    person,
    now,
  );
  return opened.packs;
}

/** A verification record that recalls (a failed test of a recalling type), with why; else undefined. */
async function failedTestOf(tx: Queryable, tenantId: string, id: string) {
  const [row] = await tenantScope(tx, tenantId)
    .select(verificationRecord, {
      id: verificationRecord.id,
      recordNo: verificationRecord.recordNo,
      deviceId: verificationRecord.deviceId,
      deviceCode: verificationRecord.deviceCode,
      deptId: verificationRecord.deptId,
      testTime: verificationRecord.testTime,
      verificationType: verificationRecord.verificationType,
      result: verificationRecord.result,
    })
    .where(eq(verificationRecord.id, id));
  const reason = row ? REASON_OF_TYPE.get(row.verificationType) : undefined;
  if (!row || !reason || row.result !== VerificationResult.fail) return undefined;
  return { row, reason };
}

/** The recall of a failed verification record, made (or completed) now: the demo's packs come after its records. */
export async function recallPacksOfRecord(
  tx: Tx,
  auth: Writer,
  id: string,
  person: string,
  now: Date,
): Promise<number> {
  const found = await failedTestOf(tx, auth.tenantId, id);
  return found ? recallPacks(tx, auth, found.row, found.row.verificationType, found.reason, person, now) : 0;
}

/**
 * After a verification record is added (or corrected): a failed biological indicator or
 * Bowie-Dick test recalls the packs of its device's loads since the last pass (a biological
 * indicator also its disinfection records) and raises one critical warning naming how many, in
 * the record's transaction. Nothing already recalled by an earlier version of the same record is
 * recalled twice (unique indexes); a later pass undoes nothing.
 */
export async function recallAfterFailedIndicator(
  tx: Tx,
  auth: AuthContext,
  id: string,
  person: string,
  now: Date,
): Promise<number> {
  const scope = tenantScope(tx, auth.tenantId);
  const found = await failedTestOf(tx, auth.tenantId, id);
  if (!found) return 0;
  const { row, reason } = found;
  const failed: FailedTest = { ...row, testTime: row.testTime };
  const packs = await recallPacks(tx, auth, failed, row.verificationType, reason, person, now);
  // A failed BD test that recalls no pack is retested before the day's cycles: nothing to warn of.
  if (reason !== RecallReason.biological && !packs) return 0;
  // The disinfection records (the ledger's marks) are recalled by a biological indicator only.
  const loads = reason === RecallReason.biological ? await loadsToRecall(tx, auth.tenantId, failed) : [];
  if (loads.length)
    await scope
      .insert(recordRecall)
      .values(
        ...loads.map((load) => ({
          id: nextId(),
          verificationId: failed.id,
          verificationNo: failed.recordNo,
          disinfectionId: load.id,
          recordNo: load.recordNo,
          deviceId: failed.deviceId,
          deviceCode: failed.deviceCode,
          recallTime: now,
          recallUserName: person,
          handled: false,
          handleUserName: '',
          handleResult: '',
          createUser: auth.userId,
          updateUser: auth.userId,
        })),
      )
      .onConflictDoNothing();
  const [named] = failed.deviceId
    ? await scope.select(device, { name: device.deviceName }).where(eq(device.id, failed.deviceId))
    : [];
  const client = txQueryable(tx);
  const event = await raiseWarning(
    client,
    {
      tenantId: auth.tenantId,
      deviceCode: failed.deviceCode,
      deviceId: failed.deviceId,
      deptId: failed.deptId,
      // One warning per failed test: its corrections repeat it rather than raise another.
      ruleKey: `indicator:${failed.recordNo}`,
      warningType: INDICATOR_WARNING_TYPE,
      level: WarningLevel.critical,
      field: '',
      triggerValue: String(reason === RecallReason.biological ? loads.length : packs),
      threshold: '',
      message:
        `设备「${named?.name ?? failed.deviceCode}」(${failed.deviceCode})${RECALL_REASON_LABELS[reason].zh}` +
        `(${formatDateTime(failed.testTime)},记录 ${failed.recordNo}),召回自上次合格以来的 ` +
        (reason === RecallReason.biological ? `${loads.length} 个批次、` : '') +
        `${packs} 个器械包`,
      at: now,
    },
    now,
  );
  await publishChanges(client, [event]);
  return loads.length;
}

/** The loads a verification record recalled (by its number: every version shows the same). */
export async function recalledLoads(db: Queryable, tenantId: string, verificationNo: string): Promise<RecalledLoad[]> {
  const scope = tenantScope(db, tenantId);
  const recalls = await scope
    .select(recordRecall)
    .where(eq(recordRecall.verificationNo, verificationNo))
    .orderBy(asc(recordRecall.recallTime), asc(recordRecall.id));
  if (!recalls.length) return [];
  // The current version of each recalled record (a correction after the recall keeps the number).
  const current = await scope
    .select(disinfectionRecord, {
      recordNo: disinfectionRecord.recordNo,
      batchNo: disinfectionRecord.batchNo,
      load: disinfectionRecord.load,
      endTime: disinfectionRecord.endTime,
      deptId: disinfectionRecord.deptId,
    })
    .where(
      inArray(
        disinfectionRecord.recordNo,
        recalls.map((r) => r.recordNo),
      ),
      eq(disinfectionRecord.superseded, false),
    );
  const byNo = new Map(current.map((r) => [r.recordNo, r]));
  const deptIds = [...new Set(current.map((r) => r.deptId).filter((d): d is string => d !== null))];
  const depts = deptIds.length
    ? await scope.select(dept, { id: dept.id, name: dept.deptName }).where(inArray(dept.id, deptIds))
    : [];
  const deptName = new Map(depts.map((d) => [d.id, d.name]));
  const time = (at: Date | null) => (at ? formatDateTime(at) : null);
  return recalls.map((r) => {
    const load = byNo.get(r.recordNo);
    return {
      id: r.id,
      disinfectionId: r.disinfectionId ?? '',
      recordNo: r.recordNo,
      batchNo: load?.batchNo ?? '',
      load: load?.load ?? '',
      endTime: time(load?.endTime ?? null),
      deptName: load?.deptId ? (deptName.get(load.deptId) ?? null) : null,
      recallTime: time(r.recallTime),
      recallUserName: r.recallUserName,
      handled: r.handled,
      handleUserName: r.handleUserName,
      handleTime: time(r.handleTime),
      handleResult: r.handleResult,
    };
  });
}

/** Of these disinfection record numbers, those recalled, each with whether every recall of it is handled. */
export async function recallMarks(
  db: Queryable,
  tenantId: string,
  recordNos: readonly string[],
): Promise<Map<string, { handled: boolean }>> {
  if (!recordNos.length) return new Map();
  const rows = await tenantScope(db, tenantId)
    .select(recordRecall, {
      recordNo: recordRecall.recordNo,
      open: sql<number>`count(*) filter (where not ${recordRecall.handled})`.mapWith(Number),
    })
    .where(anyOf(recordRecall.recordNo, recordNos, 'text'))
    .groupBy(recordRecall.recordNo);
  return new Map(rows.map((r) => [r.recordNo, { handled: r.open === 0 }]));
}

/** Of these record numbers of one kind, those that made a pack recall, each with the recall's state. */
export async function recallStates(
  db: Queryable,
  tenantId: string,
  source: RecallSource,
  recordNos: readonly string[],
): Promise<Map<string, number>> {
  if (!recordNos.length) return new Map();
  const rows = await tenantScope(db, tenantId)
    .select(recall, { sourceNo: recall.sourceNo, state: recall.state })
    .where(eq(recall.source, source), anyOf(recall.sourceNo, recordNos, 'text'));
  return new Map(rows.map((r) => [r.sourceNo, r.state]));
}

export const RecallMessages = {
  action: { zh: '请选择处置方式', en: 'Please choose what was done with the packs' },
  remarkTooLong: (max: number) => ({
    zh: `备注不能超过 ${max} 个字符`,
    en: `The remark must be at most ${max} characters`,
  }),
  oneRecall: { zh: '所选器械包须属于同一召回', en: 'The chosen packs must belong to one recall' },
  closed: { zh: '该召回已关闭', en: 'The recall is closed' },
  unhandled: (n: number) => ({
    zh: `还有 ${n} 个器械包未处置,不能关闭召回`,
    en: `${n} packs are not handled yet; the recall cannot be closed`,
  }),
  acted: (n: number) => ({ zh: `已处置 ${n} 个器械包`, en: `${n} packs handled` }),
  closedNow: { zh: '召回已关闭', en: 'The recall is closed' },
} as const;

/** The department a recalled pack was used at, beside the one holding it now. */
const usedDept = alias(dept, 'used_dept');

const time = (at: Date | null | undefined) => (at ? formatDateTime(at) : null);

/**
 * A recall with its packs as they are now (state and clinic, line, car, patient case read from
 * the pack, not the recall's copy), and its progress. `by` names the recall: its id, or the
 * kind and number of the record that made it.
 */
export async function recallView(
  db: Queryable,
  tenantId: string,
  by: { id: string } | { source: RecallSource; sourceNo: string },
): Promise<RecallView | null> {
  const scope = tenantScope(db, tenantId);
  const [head] = await scope
    .select(recall)
    .where(...('id' in by ? [eq(recall.id, by.id)] : [eq(recall.source, by.source), eq(recall.sourceNo, by.sourceNo)]));
  if (!head) return null;
  const rows = await db
    .select({
      id: recallPack.id,
      packId: recallPack.packId,
      packCode: recallPack.packCode,
      articleName: recallPack.articleName,
      loadNo: recallPack.loadNo,
      savedState: recallPack.state,
      action: recallPack.action,
      actionUserName: recallPack.actionUserName,
      actionTime: recallPack.actionTime,
      remark: recallPack.remark,
      state: pack.state,
      deptName: dept.deptName,
      lineName: line.name,
      carName: car.name,
      usedDeptName: usedDept.deptName,
      patientCase: recallPack.patientCase,
    })
    .from(recallPack)
    // Each joined row of the caller's tenant only, through the scope's one condition.
    .leftJoin(pack, scope.rows(pack, eq(pack.id, recallPack.packId)))
    .leftJoin(dept, scope.rows(dept, eq(dept.id, pack.deptId)))
    .leftJoin(usedDept, scope.rows(usedDept, eq(usedDept.id, recallPack.usedDeptId)))
    .leftJoin(line, scope.rows(line, eq(line.id, pack.lineId)))
    .leftJoin(car, scope.rows(car, eq(car.id, pack.carId)))
    .where(scope.rows(recallPack, eq(recallPack.recallId, head.id)))
    .orderBy(asc(recallPack.loadNo), asc(recallPack.packCode));
  const packs: RecalledPack[] = rows.map((r) => {
    const state = r.state ?? r.savedState;
    return {
      id: String(r.id),
      packId: String(r.packId),
      packCode: r.packCode,
      articleName: r.articleName,
      loadNo: r.loadNo,
      state: isPackState(state) ? state : PackState.awaitingPickup,
      deptName: r.deptName ?? '',
      lineName: r.lineName ?? '',
      carName: r.carName ?? '',
      usedDeptName: r.usedDeptName ?? '',
      patientCase: r.patientCase,
      action: (r.action ?? null) as RecallAction | null,
      actionUserName: r.actionUserName,
      actionTime: time(r.actionTime),
      remark: r.remark,
    };
  });
  return {
    id: String(head.id),
    source: head.source as RecallSource,
    sourceNo: head.sourceNo,
    reason: head.reason as RecallReason,
    deviceCode: head.deviceCode,
    state: head.state,
    recallTime: time(head.recallTime) ?? '',
    recallUserName: head.recallUserName,
    closeTime: time(head.closeTime),
    closeUserName: head.closeUserName,
    handled: packs.filter((p) => p.action !== null).length,
    total: packs.length,
    packs,
  };
}

/** The recall a recalled pack's row belongs to (of the tenant), if any. */
export async function recallOfPack(db: Queryable, tenantId: string, id: string): Promise<string | null> {
  const [row] = await tenantScope(db, tenantId)
    .select(recallPack, { recallId: recallPack.recallId })
    .where(eq(recallPack.id, id));
  return row?.recallId ? String(row.recallId) : null;
}

/**
 * Records what was done with recalled packs (all of one open recall), by whom and when; a later
 * action replaces an earlier one (retrieved, then reprocessed). Each pack whose state allows it
 * moves to `recalled` through the move table, with its history row; the recall's copy of where
 * the pack is follows it.
 */
export async function actOnRecalledPacks(
  tx: Tx,
  auth: Writer,
  person: string,
  input: { ids: readonly string[]; action: RecallAction; remark: string },
  now: Date,
): Promise<number> {
  const scope = tenantScope(tx, auth.tenantId);
  const rows = await scope
    .select(recallPack, { id: recallPack.id, recallId: recallPack.recallId, packId: recallPack.packId })
    .where(inArray(recallPack.id, [...input.ids]))
    .for('update');
  if (rows.length !== new Set(input.ids).size)
    throw notFound({ zh: '召回器械包不存在', en: 'A recalled pack does not exist' });
  const recallIds = new Set(rows.map((r) => String(r.recallId)));
  if (recallIds.size !== 1) throw badRequest(RecallMessages.oneRecall);
  const [head] = await scope
    .select(recall, { state: recall.state, sourceNo: recall.sourceNo })
    .where(eq(recall.id, [...recallIds][0]!))
    .for('update');
  if (!head || head.state === RecallState.closed) throw badRequest(RecallMessages.closed);
  const packIds = rows.map((r) => String(r.packId));
  const current = await scope.select(pack, { id: pack.id, state: pack.state }).where(inArray(pack.id, packIds));
  const remark = `召回 ${head.sourceNo}:${RECALL_ACTION_LABELS[input.action].zh}`;
  // A pack still sterilising in its load (a parametric failure: the load is never released)
  // leaves the load as awaiting review, the step a release takes, and is recalled from there.
  const inLoad = current.filter((p) => p.state === PackState.sterilising).map((p) => String(p.id));
  if (inLoad.length)
    await movePacks(
      tx,
      auth,
      person,
      { ids: inLoad, state: PackState.awaitingReview, place: { ...NO_PLACE, remark } },
      now,
    );
  const movable = current
    .map((p) => (p.state === PackState.sterilising ? { ...p, state: PackState.awaitingReview } : p))
    .filter((p) => isPackState(p.state) && packMoveAllowed(p.state, PackState.recalled))
    .map((p) => String(p.id));
  if (movable.length)
    await movePacks(tx, auth, person, { ids: movable, state: PackState.recalled, place: { ...NO_PLACE, remark } }, now);
  const after = await scope
    .select(pack, {
      id: pack.id,
      state: pack.state,
      deptId: pack.deptId,
      lineId: pack.lineId,
      carId: pack.carId,
    })
    .where(inArray(pack.id, packIds));
  const packOf = new Map(after.map((p) => [String(p.id), p]));
  for (const row of rows) {
    const p = packOf.get(String(row.packId));
    await scope
      .update(recallPack)
      .set({
        action: input.action,
        actionUserName: person,
        actionTime: now,
        remark: input.remark,
        ...(p ? { state: p.state, deptId: p.deptId, lineId: p.lineId, carId: p.carId } : {}),
        updateUser: auth.userId,
        updateTime: now,
      })
      .where(eq(recallPack.id, row.id));
  }
  return rows.length;
}

/** Closes an open recall, refused while any of its packs has no action. */
export async function closeRecall(tx: Tx, auth: AuthContext, person: string, id: string, now: Date): Promise<void> {
  const scope = tenantScope(tx, auth.tenantId);
  const [head] = await scope.select(recall, { state: recall.state }).where(eq(recall.id, id)).for('update');
  if (!head) throw notFound({ zh: '召回不存在', en: 'The recall does not exist' });
  if (head.state === RecallState.closed) throw badRequest(RecallMessages.closed);
  const [open] = await scope
    .select(recallPack, { n: sql<number>`count(*)`.mapWith(Number) })
    .where(eq(recallPack.recallId, id), isNull(recallPack.action));
  if (open && open.n > 0) throw badRequest(RecallMessages.unhandled(open.n));
  await scope
    .update(recall)
    .set({ state: RecallState.closed, closeTime: now, closeUserName: person, updateUser: auth.userId, updateTime: now })
    .where(eq(recall.id, id));
}

/** The recall notice (召回通知) as report data, printed by the report PDF worker: in Chinese. */
export function recallNotice(view: RecallView): ReportData {
  return {
    title: `器械包召回通知 ${view.sourceNo}`,
    subtitle:
      `原因:${RECALL_REASON_LABELS[view.reason]?.zh ?? ''};设备 ${view.deviceCode};召回时间 ${view.recallTime}` +
      `(${view.recallUserName});已处置 ${view.handled} / ${view.total}` +
      (view.closeTime ? `;已于 ${view.closeTime} 由 ${view.closeUserName} 关闭` : ''),
    // The notice prints the Chinese labels (report-pdf.ts); the English ones name the columns elsewhere.
    columns: (
      [
        ['packCode', '包编号', 'Pack code'],
        ['articleName', '物品', 'Article'],
        ['loadNo', '批次号', 'Load no'],
        ['state', '状态', 'State'],
        ['place', '所在机构 / 线路 / 车辆', 'At / line / car'],
        ['patientCase', '使用机构 / 病历号', 'Used at / patient case'],
        ['action', '处置', 'Action'],
        ['by', '处置人 / 时间', 'By / at'],
      ] as const
    ).map(([key, zh, en]) => ({ key, label: { zh, en }, type: 'text' as const })),
    rows: view.packs.map((p) => ({
      packCode: p.packCode,
      articleName: p.articleName,
      loadNo: p.loadNo,
      state: PACK_STATE_LABELS[p.state].zh,
      place: [p.deptName, p.lineName, p.carName].filter(Boolean).join(' / '),
      patientCase: [p.usedDeptName, p.patientCase].filter(Boolean).join(' / '),
      action: p.action ? RECALL_ACTION_LABELS[p.action].zh : '未处置',
      by: p.actionTime ? `${p.actionUserName} ${p.actionTime}` : '',
    })),
  };
}

import { asc, desc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import {
  formatDateTime,
  INDICATOR_WARNING_TYPE,
  VerificationResult,
  VerificationType,
  WarningLevel,
  type RecalledLoad,
} from '@mes/contracts';
import type { AuthContext } from '../../../platform/auth/request-auth';
import type { Tx } from '../../../platform/audit/operation-audit';
import { dept, device, disinfectionRecord, recordRecall, verificationRecord } from '../../../platform/db/schema';
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

/**
 * After a verification record is added (or corrected): a failed biological indicator recalls its
 * device's loads since the last pass and raises one critical warning naming how many, in the
 * record's transaction. A load already recalled by an earlier version of the same record is not
 * recalled twice (unique index); a later pass undoes nothing.
 */
export async function recallAfterFailedIndicator(
  tx: Tx,
  auth: AuthContext,
  id: string,
  person: string,
  now: Date,
): Promise<number> {
  const scope = tenantScope(tx, auth.tenantId);
  const [row] = await scope
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
  if (!row || row.verificationType !== VerificationType.biological || row.result !== VerificationResult.fail) return 0;
  const failed: FailedTest = { ...row, testTime: row.testTime };
  const loads = await loadsToRecall(tx, auth.tenantId, failed);
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
      triggerValue: String(loads.length),
      threshold: '',
      message:
        `设备「${named?.name ?? failed.deviceCode}」(${failed.deviceCode})生物指示物检测不合格` +
        `(${formatDateTime(failed.testTime)},记录 ${failed.recordNo}),召回自上次合格以来的 ${loads.length} 个批次`,
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
    .where(inArray(recordRecall.recordNo, [...recordNos]))
    .groupBy(recordRecall.recordNo);
  return new Map(rows.map((r) => [r.recordNo, { handled: r.open === 0 }]));
}

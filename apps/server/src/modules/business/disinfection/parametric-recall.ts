import { eq, inArray } from 'drizzle-orm';
import {
  formatDateTime,
  PARAMETRIC_WARNING_TYPE,
  ParametricResult,
  RecallReason,
  RecallSource,
  WarningLevel,
} from '@mes/contracts';
import type { Tx } from '../../../platform/audit/operation-audit';
import { device, disinfectionRecord, load, recall, recallPack } from '../../../platform/db/schema';
import { txQueryable } from '../../../platform/jobs/transaction-executor';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { raiseWarning } from '../../telemetry/alarm-store';
import { publishChanges } from '../../telemetry/publish-changes';
import { openRecall, type Writer } from '../verification/verification-recall';

/** Who the records job's recall names (the job has no signed-in person). */
export const JUDGEMENT_PERSON = '系统(参数判定)';
export const JUDGEMENT_USER = '0';

/**
 * A cycle that failed its parametric judgement recalls the packs of its load (docs/packs.md
 * "Recalls"): the load cannot be released, so the packs are usually still awaiting review, but
 * each must still be accounted for. Called wherever the two meet — the records job judging a
 * cycle a load already names, a load given its cycle, packs put into a load whose cycle failed —
 * in the caller's transaction. The recall is keyed by the disinfection record's number; a record
 * made again for the same cycle (after a deletion: a new number) adds to the recall already
 * holding the load's packs instead of opening a second. One critical warning, raised when the
 * recall first names packs (and again only when it gains packs). Answers the packs added.
 */
export async function recallParametricFailure(
  tx: Tx,
  auth: Writer,
  cycleId: string,
  person: string,
  now: Date,
): Promise<number> {
  const scope = tenantScope(tx, auth.tenantId);
  const [record] = await scope
    .select(disinfectionRecord, {
      id: disinfectionRecord.id,
      recordNo: disinfectionRecord.recordNo,
      deviceId: disinfectionRecord.deviceId,
      deviceCode: disinfectionRecord.deviceCode,
      deptId: disinfectionRecord.deptId,
      endTime: disinfectionRecord.endTime,
      parametricResult: disinfectionRecord.parametricResult,
    })
    .where(eq(disinfectionRecord.cycleId, cycleId), eq(disinfectionRecord.superseded, false))
    .limit(1);
  if (!record?.deviceId || record.parametricResult !== ParametricResult.fail) return 0;
  const loads = await scope.select(load, { id: load.id, loadNo: load.loadNo }).where(eq(load.cycleId, cycleId));
  if (!loads.length) return 0;
  const loadIds = loads.map((l) => String(l.id));
  const [earlier] = await tx
    .select({ id: recall.id })
    .from(recallPack)
    .innerJoin(recall, scope.rows(recall, eq(recall.id, recallPack.recallId)))
    .where(scope.rows(recallPack, inArray(recallPack.loadId, loadIds), eq(recall.reason, RecallReason.parametric)))
    .limit(1);
  const { packs, added } = await openRecall(
    tx,
    auth,
    {
      source: RecallSource.disinfection,
      sourceId: String(record.id),
      sourceNo: record.recordNo,
      reason: RecallReason.parametric,
      deviceId: String(record.deviceId),
      deviceCode: record.deviceCode,
    },
    loads.map((l) => ({ id: String(l.id), loadNo: l.loadNo })),
    person,
    now,
    earlier ? String(earlier.id) : undefined,
  );
  if (!added) return 0;
  const [named] = await scope.select(device, { name: device.deviceName }).where(eq(device.id, record.deviceId));
  const name = named?.name ?? record.deviceCode;
  const ended = record.endTime ? formatDateTime(record.endTime) : '';
  const loadNos = loads.map((l) => l.loadNo).join('、');
  const client = txQueryable(tx);
  const event = await raiseWarning(
    client,
    {
      tenantId: auth.tenantId,
      deviceCode: record.deviceCode,
      deviceId: String(record.deviceId),
      deptId: record.deptId,
      // One warning per cycle's record: packs added later repeat it rather than raise another.
      ruleKey: `parametric:${record.recordNo}`,
      warningType: PARAMETRIC_WARNING_TYPE,
      level: WarningLevel.critical,
      field: '',
      triggerValue: String(packs),
      threshold: '',
      message:
        `设备「${name}」(${record.deviceCode})参数放行不合格(${ended},记录 ${record.recordNo}),` +
        `召回批次 ${loadNos} 的 ${packs} 个器械包` +
        ` / ${name} (${record.deviceCode}) failed its parametric release (${ended}, record ${record.recordNo}):` +
        ` ${packs} packs of load ${loadNos} recalled`,
      at: now,
    },
    now,
  );
  await publishChanges(client, [event]);
  return added;
}

/** After packs go into a load: when its cycle already failed parametrically, they join its recall. */
export async function recallIntoFailedLoad(
  tx: Tx,
  auth: Writer,
  loadId: string,
  person: string,
  now: Date,
): Promise<number> {
  const [row] = await tenantScope(tx, auth.tenantId).select(load, { cycleId: load.cycleId }).where(eq(load.id, loadId));
  return row?.cycleId ? recallParametricFailure(tx, auth, String(row.cycleId), person, now) : 0;
}

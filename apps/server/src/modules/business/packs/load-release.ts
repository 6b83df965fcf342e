import { and, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import {
  CycleResult,
  expiryDateOf,
  LoadStatus,
  ParametricResult,
  PackState,
  verificationRecordResource,
  VerificationResult,
  VerificationType,
  type LocalText,
} from '@mes/contracts';
import type { AuthContext } from '../../../platform/auth/request-auth';
import type { Tx } from '../../../platform/audit/operation-audit';
import {
  article,
  device,
  deviceCycle,
  disinfectionRecord,
  load,
  pack,
  product,
  verificationRecord,
} from '../../../platform/db/schema';
import { badRequest, notFound } from '../../../platform/http/errors';
import { tenantScope } from '../../../platform/tenancy/tenant-scope';
import { dayStart, zoneDay } from '../../welcome/welcome-days';
import { BD_CATEGORY } from '../verification/verification-release';
import { movePacks, NO_PLACE } from './pack-moves';

/** The name of a verification type (dictionary verification_type, as the definition seeds it). */
function verificationTypeName(type: number): LocalText {
  const entries =
    verificationRecordResource.menu?.dictionaries?.find((d) => d.code === 'verification_type')?.entries ?? [];
  const found = entries.find(([key]) => key === String(type));
  return found ? { zh: found[1], en: found[2] ?? found[1] } : { zh: `类型${type}`, en: `type ${type}` };
}

export const LoadMessages = {
  released: { zh: '该批次已放行', en: 'The load is already released' },
  noCycle: { zh: '该批次尚未关联灭菌周期,不能放行', en: 'The load has no cycle yet and cannot be released' },
  cycleGone: { zh: '该批次的灭菌周期不存在', en: "The load's cycle does not exist" },
  cycleDevice: { zh: '灭菌周期须为该灭菌器的周期', en: "The cycle must be one of the load's steriliser" },
  cycleResult: {
    zh: '设备报告该灭菌周期未合格完成,不能放行',
    en: 'The device reported the cycle as failed or aborted; the load cannot be released',
  },
  notJudged: {
    zh: '灭菌周期尚未通过参数判定(未判定),不能放行',
    en: 'The cycle has not been judged parametrically; the load cannot be released',
  },
  parametricFail: (reason: string) => ({
    zh: `灭菌周期参数判定不合格,不能放行${reason ? `:${reason}` : ''}`,
    en: `The cycle failed its parametric judgement; the load cannot be released${reason ? `: ${reason}` : ''}`,
  }),
  indicatorFail: (type: number, no: string) => {
    const name = verificationTypeName(type);
    return {
      zh: `${name.zh}不合格(验证记录 ${no}),不能放行`,
      en: `${name.en} failed (verification ${no}); the load cannot be released`,
    };
  },
  noBd: {
    zh: '灭菌器当日无BD测试记录,不能放行',
    en: 'The steriliser has no Bowie-Dick test on the day of the cycle; the load cannot be released',
  },
  bdFailed: (no: string) => ({
    zh: `灭菌器当日BD测试不合格(验证记录 ${no}),不能放行`,
    en: `The day's Bowie-Dick test failed (verification ${no}); the load cannot be released`,
  }),
  noIndicator: {
    zh: '该批次无监测指示物结果,不能放行',
    en: 'The load has no indicator result; it cannot be released',
  },
  noPacks: { zh: '该批次没有待放行的器械包', en: 'The load has no packs waiting for release' },
  releasedMsg: (n: number) => ({
    zh: `批次已放行,${n} 个器械包已转为无菌`,
    en: `Load released; ${n} packs are sterile`,
  }),
  releasedEdit: { zh: '已放行的批次不能修改', en: 'A released load cannot be changed' },
} as const;

/**
 * Releases a load (docs/packs.md "Release"), in the caller's transaction, or refuses with the
 * first reason: its cycle must have finished as passed by the device and passed its parametric
 * judgement; no indicator recorded against the cycle may have failed, a steam steriliser needs a
 * passing Bowie-Dick test on the cycle's day before the cycle ended, and some indicator must
 * have been recorded at all. Its packs waiting in the load become sterile (through awaiting
 * review), sterilised on the cycle's day and expiring by their article's pack material.
 */
export async function releaseLoad(tx: Tx, auth: AuthContext, person: string, loadId: string, now: Date) {
  const scope = tenantScope(tx, auth.tenantId);
  const [row] = await scope.select(load).where(eq(load.id, loadId)).for('update');
  if (!row) throw notFound(LoadMessages.cycleGone);
  if (row.state === LoadStatus.released) throw badRequest(LoadMessages.released);
  if (!row.cycleId) throw badRequest(LoadMessages.noCycle);
  const [cycle] = await scope
    .select(deviceCycle, {
      id: deviceCycle.id,
      deviceId: deviceCycle.deviceId,
      startTime: deviceCycle.startTime,
      endTime: deviceCycle.endTime,
      result: deviceCycle.result,
      parametricResult: deviceCycle.parametricResult,
      parametricReason: deviceCycle.parametricReason,
    })
    .where(eq(deviceCycle.id, row.cycleId));
  if (!cycle) throw badRequest(LoadMessages.cycleGone);
  const ended = cycle.endTime;
  if (!ended) throw badRequest(LoadMessages.cycleResult);
  if (cycle.result !== CycleResult.pass) throw badRequest(LoadMessages.cycleResult);
  if (cycle.parametricResult === ParametricResult.fail)
    throw badRequest(LoadMessages.parametricFail(cycle.parametricReason ?? ''));
  if (cycle.parametricResult !== ParametricResult.pass) throw badRequest(LoadMessages.notJudged);

  // Indicators recorded against the cycle's record (any version of it): none may have failed.
  const records = scope
    .select(disinfectionRecord, { id: disinfectionRecord.id })
    .where(eq(disinfectionRecord.cycleId, cycle.id));
  const indicators = await scope
    .select(verificationRecord, {
      recordNo: verificationRecord.recordNo,
      verificationType: verificationRecord.verificationType,
      result: verificationRecord.result,
    })
    .where(eq(verificationRecord.superseded, false), inArray(verificationRecord.disinfectionRecordId, records));
  const failed = indicators.find((i) => i.result !== VerificationResult.pass);
  if (failed) throw badRequest(LoadMessages.indicatorFail(failed.verificationType, failed.recordNo));

  // A pre-vacuum steam steriliser runs a Bowie-Dick test daily before its first cycle.
  const deviceId = cycle.deviceId ?? row.deviceId;
  const [onDevice] = deviceId
    ? await scope.select(device, { productId: device.productId }).where(eq(device.id, deviceId))
    : [];
  const [category] = onDevice?.productId
    ? await scope.select(product, { category: product.category }).where(eq(product.id, onDevice.productId))
    : [];
  let bdPassed = false;
  if (category?.category === BD_CATEGORY && deviceId) {
    const day = zoneDay(ended.getTime());
    const [bd] = await scope
      .select(verificationRecord, { recordNo: verificationRecord.recordNo, result: verificationRecord.result })
      .where(
        and(
          eq(verificationRecord.deviceId, deviceId),
          eq(verificationRecord.verificationType, VerificationType.bowieDick),
          eq(verificationRecord.superseded, false),
          gte(verificationRecord.testTime, dayStart(day)),
          lte(verificationRecord.testTime, ended),
        ),
      )
      .orderBy(desc(verificationRecord.testTime))
      .limit(1);
    if (!bd) throw badRequest(LoadMessages.noBd);
    if (bd.result !== VerificationResult.pass) throw badRequest(LoadMessages.bdFailed(bd.recordNo));
    bdPassed = true;
  }
  if (!bdPassed && !indicators.length) throw badRequest(LoadMessages.noIndicator);

  const packs = await scope
    .select(pack, { id: pack.id, state: pack.state, articleId: pack.articleId })
    .where(eq(pack.loadId, row.id), inArray(pack.state, [PackState.sterilising, PackState.awaitingReview]));
  if (!packs.length) throw badRequest(LoadMessages.noPacks);
  const articleIds = [...new Set(packs.map((p) => p.articleId).filter((a): a is string => !!a))];
  const articles = await scope
    .select(article, {
      id: article.id,
      packMaterial: article.packMaterial,
      climateControlled: article.climateControlled,
    })
    .where(inArray(article.id, articleIds));
  const sterileDate = zoneDay(ended.getTime());
  const byId = new Map(articles.map((a) => [String(a.id), a]));
  const place = { ...NO_PLACE, loadId: row.id };
  const waiting = packs.filter((p) => p.state === PackState.sterilising).map((p) => p.id);
  if (waiting.length) await movePacks(tx, auth, person, { ids: waiting, state: PackState.awaitingReview, place }, now);
  const moved = await movePacks(
    tx,
    auth,
    person,
    { ids: packs.map((p) => p.id), state: PackState.sterile, place: { ...place, remark: '批次放行' } },
    now,
    {
      release: {
        sterileDate,
        expiryOf: (articleId) => {
          const a = byId.get(articleId);
          return a ? expiryDateOf(sterileDate, a.packMaterial, a.climateControlled) : null;
        },
      },
    },
  );
  await scope
    .update(load)
    .set({
      state: LoadStatus.released,
      releaseUserName: person,
      releaseTime: now,
      updateUser: auth.userId,
      updateTime: now,
    })
    .where(eq(load.id, row.id));
  return moved;
}

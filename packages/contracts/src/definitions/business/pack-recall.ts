import { defineResource, type LocalText } from '../../engine/define';
import { deptResource } from '../system/dept';
import { carResource } from './car';
import { lineResource } from './line';
import { PACK_STATE_OPTIONS, type PackState } from './pack';

/** Why a recall was made: the failed test (docs/packs.md "Recalls"). */
export const RecallReason = { biological: 1, bowieDick: 2, parametric: 3 } as const;
export type RecallReason = (typeof RecallReason)[keyof typeof RecallReason];

export const RECALL_REASON_LABELS: Readonly<Record<RecallReason, LocalText>> = {
  [RecallReason.biological]: { zh: '生物指示物不合格', en: 'Biological indicator failed' },
  [RecallReason.bowieDick]: { zh: 'BD测试不合格', en: 'Bowie-Dick test failed' },
  [RecallReason.parametric]: { zh: '参数放行不合格', en: 'Parametric release failed' },
};

/**
 * The record a recall was made from: a failed verification record (biological indicator, BD
 * test) or a disinfection record whose cycle failed its parametric judgement.
 */
export const RecallSource = { verification: 1, disinfection: 2 } as const;
export type RecallSource = (typeof RecallSource)[keyof typeof RecallSource];

export const RECALL_SOURCE_LABELS: Readonly<Record<RecallSource, LocalText>> = {
  [RecallSource.verification]: { zh: '验证记录', en: 'Verification record' },
  [RecallSource.disinfection]: { zh: '消毒记录', en: 'Disinfection record' },
};

/** `state` of a recall: open until every pack has its action and someone closes it. */
export const RecallState = { open: 1, closed: 2 } as const;

/**
 * What was done with one recalled pack. Each is recorded with who and when; the pack moves to
 * `recalled` where its state allows (a pack in the wash loop already is being reprocessed).
 */
export const RecallAction = { retrieved: 1, reprocessed: 2, destroyed: 3, patientNotified: 4 } as const;
export type RecallAction = (typeof RecallAction)[keyof typeof RecallAction];

export const RECALL_ACTION_LABELS: Readonly<Record<RecallAction, LocalText>> = {
  [RecallAction.retrieved]: { zh: '已收回', en: 'Retrieved' },
  [RecallAction.reprocessed]: { zh: '已重新处理', en: 'Reprocessed' },
  [RecallAction.destroyed]: { zh: '已销毁', en: 'Destroyed' },
  [RecallAction.patientNotified]: { zh: '已通知患者', en: 'Patient notified' },
};

export const isRecallAction = (value: unknown): value is RecallAction =>
  typeof value === 'number' && Object.prototype.hasOwnProperty.call(RECALL_ACTION_LABELS, value);

const optionsOf = (labels: Readonly<Record<number, LocalText>>) => ({
  items: Object.entries(labels).map(([value, label]) => ({ value: Number(value), label })),
});

/** A recall's routes, under the screen of the record kind that makes it (each checks its own access). */
export interface RecallPaths {
  /** `GET /api` + this + `?id=` (the source record): its recall with the packs, or `null`. */
  detail: string;
  /** `POST /api` + this (`ids` of recalled packs, `action`, `remark`): records what was done with them. */
  action: string;
  /** `POST /api` + this + `?id=` (a recall): closes it once every pack is handled. */
  close: string;
  /** `GET /api` + this + `?id=` (a recall): its packs as an xlsx sheet. */
  export: string;
  /** `GET /api` + this + `?id=` (a recall): the recall notice as a PDF (Chinese). */
  notice: string;
}

const recallPathsUnder = (base: string): RecallPaths => ({
  detail: `${base}/detail`,
  action: `${base}/action`,
  close: `${base}/close`,
  export: `${base}/export`,
  notice: `${base}/notice`,
});

/**
 * The recall routes by the record kind that makes the recall: a verification record's under the
 * verification records' scopes, a disinfection record's under the disinfection records'.
 */
export const RECALL_PATHS: Readonly<Record<RecallSource, RecallPaths>> = {
  [RecallSource.verification]: recallPathsUnder('/blade-business/recall'),
  [RecallSource.disinfection]: recallPathsUnder('/blade-business/disinfection/recall'),
};

/** The verification records' recall routes, by their former names. */
export const RECALL_DETAIL_PATH = RECALL_PATHS[RecallSource.verification].detail;
export const RECALL_ACTION_PATH = RECALL_PATHS[RecallSource.verification].action;
export const RECALL_CLOSE_PATH = RECALL_PATHS[RecallSource.verification].close;
export const RECALL_EXPORT_PATH = RECALL_PATHS[RecallSource.verification].export;
export const RECALL_NOTICE_PATH = RECALL_PATHS[RecallSource.verification].notice;
/** The longest remark on a pack's action. */
export const RECALL_REMARK_MAX = 255;

/**
 * A recall (召回): made by a failed biological indicator, Bowie-Dick test or parametric result,
 * it names every pack of the affected loads; open until each pack has its action and it is closed.
 * No screen of its own: the record that made it shows it (routes above). Which record is `source`
 * (a verification record, or a disinfection record for a parametric failure) with its id and
 * number: one recall per (source, number).
 */
export const recallResource = defineResource({
  code: 'recall',
  title: { zh: '器械包召回', en: 'Recalls' },
  table: 'mes_recall',
  api: '/blade-business/recall',
  owner: 'tenant',
  operations: [],
  fields: {
    source: { kind: 'int', label: { zh: '来源', en: 'Source' }, options: optionsOf(RECALL_SOURCE_LABELS) },
    sourceId: { kind: 'id', label: { zh: '来源记录', en: 'Source record' } },
    sourceNo: { kind: 'string', label: { zh: '来源记录编号', en: 'Source record no' }, max: 32 },
    reason: { kind: 'int', label: { zh: '召回原因', en: 'Reason' }, options: optionsOf(RECALL_REASON_LABELS) },
    deviceId: { kind: 'id', label: { zh: '设备', en: 'Device' }, nullable: true },
    deviceCode: { kind: 'string', label: { zh: '设备编号', en: 'Device code' }, max: 64 },
    state: { kind: 'int', label: { zh: '状态', en: 'State' }, default: RecallState.open },
    recallTime: { kind: 'datetime', label: { zh: '召回时间', en: 'Recalled at' } },
    recallUserName: { kind: 'string', label: { zh: '召回人', en: 'Recalled by' }, max: 64 },
    closeTime: { kind: 'datetime', label: { zh: '关闭时间', en: 'Closed at' }, nullable: true },
    closeUserName: { kind: 'string', label: { zh: '关闭人', en: 'Closed by' }, max: 64 },
  },
  indexes: [{ fields: ['tenantId', 'source', 'sourceNo'], unique: true }, { fields: ['tenantId', 'state'] }],
});

/**
 * One pack of a recall: the pack and its load as they were recalled, where it was (refreshed by
 * each action, so the sheet shows where it was handled), the clinic and patient case it was used
 * on after the recalled sterilisation, and what was done with it, by whom, when.
 */
export const recallPackResource = defineResource({
  code: 'recall_pack',
  title: { zh: '召回器械包', en: 'Recalled packs' },
  table: 'mes_recall_pack',
  api: '/blade-business/recall-pack',
  owner: 'tenant',
  operations: [],
  fields: {
    recallId: { kind: 'id', label: { zh: '召回', en: 'Recall' }, list: false },
    packId: { kind: 'id', label: { zh: '器械包', en: 'Pack' }, list: false },
    packCode: { kind: 'string', label: { zh: '包编号', en: 'Pack code' }, max: 32, width: 150 },
    articleName: { kind: 'string', label: { zh: '物品', en: 'Article' }, max: 64, width: 140 },
    loadId: { kind: 'id', label: { zh: '批次', en: 'Load' }, nullable: true, list: false },
    loadNo: { kind: 'string', label: { zh: '批次号', en: 'Load no' }, max: 32, width: 150 },
    state: { kind: 'int', label: { zh: '状态', en: 'State' }, options: PACK_STATE_OPTIONS, width: 100 },
    deptId: {
      kind: 'reference',
      label: { zh: '所在机构', en: 'At' },
      reference: { to: () => deptResource, label: 'deptName', onRemove: 'clear' },
      width: 140,
    },
    lineId: {
      kind: 'reference',
      label: { zh: '线路', en: 'Line' },
      reference: { to: () => lineResource, label: 'name', onRemove: 'clear' },
      width: 120,
    },
    carId: {
      kind: 'reference',
      label: { zh: '车辆', en: 'Car' },
      reference: { to: () => carResource, label: 'name', onRemove: 'clear' },
      width: 120,
    },
    // The use after the recalled sterilisation, if any: where and on whom (kept when the pack moves on).
    usedDeptId: {
      kind: 'reference',
      label: { zh: '使用机构', en: 'Used at' },
      reference: { to: () => deptResource, label: 'deptName', onRemove: 'clear' },
      width: 140,
    },
    patientCase: { kind: 'string', label: { zh: '病历号', en: 'Patient case' }, max: 64, width: 120 },
    action: {
      kind: 'int',
      label: { zh: '处置', en: 'Action' },
      nullable: true,
      options: optionsOf(RECALL_ACTION_LABELS),
      width: 110,
    },
    actionUserName: { kind: 'string', label: { zh: '处置人', en: 'By' }, max: 64, width: 100 },
    actionTime: { kind: 'datetime', label: { zh: '处置时间', en: 'At' }, nullable: true, width: 160 },
    remark: { kind: 'string', label: { zh: '备注', en: 'Remark' }, max: 255, width: 160 },
  },
  indexes: [{ fields: ['tenantId', 'recallId', 'packId'], unique: true }, { fields: ['tenantId', 'packId'] }],
});

/** A recall as the source record's dialog shows it. */
export interface RecallView {
  id: string;
  /** The kind and number of the record that made it. */
  source: RecallSource;
  sourceNo: string;
  reason: RecallReason;
  deviceCode: string;
  state: number;
  recallTime: string;
  recallUserName: string;
  closeTime: string | null;
  closeUserName: string;
  /** Packs with an action / all packs. */
  handled: number;
  total: number;
  packs: RecalledPack[];
}

/** One recalled pack: where it is now, and for a used one the clinic and patient case. */
export interface RecalledPack {
  /** The recall row's id (what the action route takes). */
  id: string;
  packId: string;
  packCode: string;
  articleName: string;
  loadNo: string;
  state: PackState;
  deptName: string;
  lineName: string;
  carName: string;
  /** Where and on whom the pack was used after the recalled sterilisation; empty when it was not. */
  usedDeptName: string;
  patientCase: string;
  action: RecallAction | null;
  actionUserName: string;
  actionTime: string | null;
  remark: string;
}

import { defineResource, type FieldDef } from '../../engine/define';
import { defineRecordResource } from '../../engine/records';
import { deviceRowFields } from '../device/device-row-fields';
import { disinfectionRecordResource, RECORD_RETENTION, RECORD_TYPE_OPTIONS, RecordType } from './disinfection-record';

/**
 * `verificationType` (dictionary verification_type): what was tested (WS 310.3 monitoring, the
 * waterline standards' water tests, and the three runs after installation or repair).
 */
export const VerificationType = {
  bowieDick: 1,
  chemicalInner: 2,
  chemicalOuter: 3,
  biological: 4,
  pcd: 5,
  physical: 6,
  waterlineMicrobiology: 7,
  concentration: 8,
  requalification: 9,
} as const;

/** `result` (dictionary verification_result). */
export const VerificationResult = { pass: 1, fail: 2 } as const;

/** Consecutive passing requalification runs that release a steriliser after installation or repair. */
export const REQUALIFICATION_RUNS = 3;

/** `GET <api>/recalls?id=`: the loads a verification record recalled (the same for all its versions). */
export const VERIFICATION_RECALLS_PATH = '/blade-business/verification/recalls';
/** `POST <api>/handle-recall` (`ids` of recalls, `result`): marks recalls as dealt with. */
export const VERIFICATION_HANDLE_RECALL_PATH = '/blade-business/verification/handle-recall';
/** `GET <api>/release`: the release state today of every steam steriliser the caller's device scope shows. */
export const VERIFICATION_RELEASE_PATH = '/blade-business/verification/release';
/** The longest handle result of a recall. */
export const RECALL_RESULT_MAX = 255;

/** One recalled load as the verification's detail lists it. */
export interface RecalledLoad {
  /** The recall's id (what `handle-recall` takes). */
  id: string;
  /** The disinfection record (its version flagged when the recall was made). */
  disinfectionId: string;
  recordNo: string;
  batchNo: string;
  load: string;
  endTime: string | null;
  deptName: string | null;
  recallTime: string | null;
  recallUserName: string;
  handled: boolean;
  handleUserName: string;
  handleTime: string | null;
  handleResult: string;
}

/** Why a steam steriliser is not released today. */
export type ReleaseBlock = 'noBd' | 'bdFailed' | 'requalifying';

/** The release state of a device that needs a daily BD test (product category 2). */
export interface DeviceRelease {
  deviceId: string;
  deviceCode: string;
  deviceName: string;
  released: boolean;
  /** Set when not released. */
  block: ReleaseBlock | null;
  /** Today's latest BD test (yyyy-MM-dd HH:mm:ss), null when there is none today. */
  bdTime: string | null;
  /** Passing requalification runs in a row so far, while a requalification is open. */
  requalificationPasses: number | null;
}

const device = deviceRowFields(['deviceId', 'deptId']);

const text = (zh: string, en: string, max = 64) =>
  ({ kind: 'string', label: { zh, en }, max, list: false }) as const satisfies FieldDef;

const figure = (zh: string, en: string) =>
  ({
    kind: 'decimal',
    label: { zh, en },
    precision: 12,
    scale: 3,
    nullable: true,
    list: false,
    range: [-1_000_000, 1_000_000],
  }) as const satisfies FieldDef;

/**
 * A verification record (DOMAIN.md "Records"): a BD test, an indicator, a physical check, a water
 * test, a concentration test or a requalification run of one device, chained per device like the
 * disinfection records and kept as long as its device's records. A failed biological indicator
 * recalls the device's loads since the last passing one (`mes_record_recall`, docs/records.md).
 */
export const verificationRecordResource = defineRecordResource({
  code: 'verification',
  title: { zh: '验证记录', en: 'Verification records' },
  table: 'mes_verification_record',
  api: '/blade-business/verification',
  listRoute: 'page',
  operations: ['page', 'detail', 'submit', 'remove', 'export'],
  dataScope: { deptColumn: 'dept_id' },
  menu: {
    group: 'business',
    sort: 3,
    icon: 'experiment',
    nameEn: 'Verification records',
    buttons: [{ action: 'recall', name: { zh: '召回处理', en: 'Handle recall' }, position: 2 }],
    scopes: [{ action: 'recall', name: '召回处理', path: `/api${VERIFICATION_HANDLE_RECALL_PATH}` }],
    dictionaries: [
      {
        code: 'verification_type',
        name: '验证类型',
        entries: [
          [String(VerificationType.bowieDick), 'BD测试', 'Bowie-Dick test'],
          [String(VerificationType.chemicalInner), '包内化学指示物', 'Chemical indicator, inside'],
          [String(VerificationType.chemicalOuter), '包外化学指示物', 'Chemical indicator, outside'],
          [String(VerificationType.biological), '生物指示物', 'Biological indicator'],
          [String(VerificationType.pcd), '过程挑战装置(PCD)', 'Process challenge device (PCD)'],
          [String(VerificationType.physical), '物理监测', 'Physical monitoring'],
          [String(VerificationType.waterlineMicrobiology), '水路微生物检测', 'Waterline microbiology'],
          [String(VerificationType.concentration), '浓度检测', 'Concentration test'],
          [String(VerificationType.requalification), '安装/维修后再验证', 'Requalification'],
        ],
      },
      {
        code: 'verification_result',
        name: '验证结果',
        entries: [
          [String(VerificationResult.pass), '合格', 'Pass'],
          [String(VerificationResult.fail), '不合格', 'Fail'],
        ],
      },
    ],
  },
  dialogWidth: 960,
  records: {
    chainBy: 'deviceCode',
    retention: { typeField: 'recordType', timeField: 'testTime', types: RECORD_RETENTION },
  },
  fields: {
    recordNo: {
      kind: 'string',
      label: { zh: '记录编号', en: 'Record no' },
      max: 32,
      form: 'readonly',
      search: true,
      width: 150,
    },
    // Picked on entry and fixed afterwards: the record's chain is its device's.
    deviceId: { ...device.deviceId, required: true, form: 'create' },
    deviceCode: device.deviceCode,
    deptId: device.deptId,
    recordType: {
      kind: 'int',
      label: { zh: '记录类型', en: 'Record type' },
      form: 'readonly',
      default: RecordType.disinfection,
      list: false,
      options: RECORD_TYPE_OPTIONS,
    },
    verificationType: {
      kind: 'int',
      label: { zh: '验证类型', en: 'Type' },
      required: true,
      range: [1, 9],
      default: VerificationType.bowieDick,
      options: { dict: 'verification_type' },
      search: true,
      width: 150,
    },
    testTime: {
      kind: 'datetime',
      label: { zh: '检测时间', en: 'Tested at' },
      required: true,
      search: true,
      sort: true,
      width: 160,
    },
    // The cycle the test rode with (a BD run, a biological indicator's load), of the same device.
    disinfectionRecordId: {
      kind: 'reference',
      label: { zh: '消毒记录', en: 'Disinfection record' },
      list: false,
      reference: {
        to: () => disinfectionRecordResource,
        label: 'recordNo',
        onRemove: 'clear',
        matches: { field: 'deviceId', targetField: 'deviceId' },
      },
    },
    batchNo: { ...text('批次号', 'Batch no'), list: true, search: true, width: 120, listPriority: 'low' },
    indicatorBrand: text('指示物品牌', 'Indicator brand'),
    indicatorLot: text('指示物批号', 'Indicator lot'),
    incubationTemperature: figure('培养温度(℃)', 'Incubation temperature (°C)'),
    incubationHours: figure('培养时间(小时)', 'Incubation (hours)'),
    testResult: text('测试管结果', 'Test result'),
    controlResult: text('对照管结果', 'Control result'),
    measuredValue: figure('测量值', 'Measured value'),
    unit: text('单位', 'Unit', 16),
    samplingPoint: text('采样点', 'Sampling point', 128),
    result: {
      kind: 'int',
      label: { zh: '结果', en: 'Result' },
      required: true,
      range: [1, 2],
      default: VerificationResult.pass,
      options: { dict: 'verification_result' },
      search: true,
      width: 90,
    },
    // The ids of uploaded files (附件管理, oss put-file); no attachment field kind exists yet.
    photos: {
      kind: 'json',
      label: { zh: '照片(附件编号)', en: 'Photos (attachment ids)' },
      schema: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 12 },
      nullable: true,
      list: false,
    },
    recallTriggered: {
      kind: 'boolean',
      label: { zh: '触发召回', en: 'Recall triggered' },
      form: 'readonly',
      search: true,
      width: 90,
    },
    remark: text('备注', 'Remark', 255),
  },
  indexes: [
    {
      fields: ['tenantId', 'recordNo', 'recordVersion'],
      unique: true,
      message: { zh: '记录编号已存在', en: 'The record no exists' },
    },
    // "The last verification of a device before a day" (the ledger, the release, the recall window).
    { fields: ['tenantId', 'deviceId', 'testTime'] },
  ],
  defaultSort: [{ field: 'testTime', desc: true }],
});

/**
 * A load recalled by a failed biological indicator: the verification record (and its number,
 * shared by its versions) → the disinfection record (and its number, shared by its versions).
 * Records are chained and never edited, so the recall lives beside them; made in the
 * verification's transaction, handled later. No screen or routes of its own: the verification
 * routes read and handle it.
 */
export const recordRecallResource = defineResource({
  code: 'record_recall',
  title: { zh: '召回记录', en: 'Recalls' },
  table: 'mes_record_recall',
  api: '/blade-business/record-recall',
  owner: 'tenant',
  operations: [],
  fields: {
    verificationId: { kind: 'id', label: { zh: '验证记录', en: 'Verification record' } },
    verificationNo: { kind: 'string', label: { zh: '验证记录编号', en: 'Verification no' }, max: 32 },
    disinfectionId: { kind: 'id', label: { zh: '消毒记录', en: 'Disinfection record' } },
    recordNo: { kind: 'string', label: { zh: '消毒记录编号', en: 'Record no' }, max: 32 },
    deviceId: { kind: 'id', label: { zh: '设备', en: 'Device' }, nullable: true },
    deviceCode: { kind: 'string', label: { zh: '设备编号', en: 'Device code' }, max: 64 },
    recallTime: { kind: 'datetime', label: { zh: '召回时间', en: 'Recalled at' } },
    recallUserName: { kind: 'string', label: { zh: '召回人', en: 'Recalled by' }, max: 64 },
    handled: { kind: 'boolean', label: { zh: '已处理', en: 'Handled' } },
    handleTime: { kind: 'datetime', label: { zh: '处理时间', en: 'Handled at' }, nullable: true },
    handleUserName: { kind: 'string', label: { zh: '处理人', en: 'Handled by' }, max: 64 },
    handleResult: { kind: 'string', label: { zh: '处理结果', en: 'Result' }, max: 255 },
  },
  indexes: [
    // A correction of a failed test (fail again) recalls nothing twice.
    { fields: ['tenantId', 'verificationNo', 'recordNo'], unique: true },
    { fields: ['tenantId', 'recordNo'] },
    { fields: ['tenantId', 'deviceCode', 'handled'] },
  ],
});

import type { FieldDef } from '../../engine/define';
import { defineRecordResource, type RetentionRule } from '../../engine/records';
import { judgementFields } from '../device/device-cycle';
import { deviceRowFields } from '../device/device-row-fields';
import { productResource, type LETHALITY_KINDS } from '../device/product';
import { RECALL_PATHS, RecallSource } from './pack-recall';

/** `recordType`: what the standards keep apart, each with its retention. */
export const RecordType = { disinfection: 1, sterilisation: 2, waterline: 3 } as const;

/** `source`: a device's finished cycle, or a record typed in for a device without telemetry. */
export const RecordSource = { cycle: 1, manual: 2 } as const;

/**
 * The record type of a device by its product's category (dictionary product_category): 1 水路消毒机
 * keeps waterline records, 2 and 3 (steam, plasma/EO) sterilisation records, 4 washers and 5 air
 * disinfectors cleaning/disinfection records.
 */
export function recordTypeOfCategory(category: number): number {
  if (category === 1) return RecordType.waterline;
  if (category === 2 || category === 3) return RecordType.sterilisation;
  return RecordType.disinfection;
}

/** WS 310.3 / WS 506 and the waterline standards (docs/records.md); shared with the verification records. */
export const RECORD_RETENTION: Readonly<Record<number, RetentionRule>> = {
  [RecordType.disinfection]: {
    label: { zh: '清洗消毒记录', en: 'Cleaning/disinfection records' },
    param: 'records.retention.disinfection.days',
    paramName: '清洗消毒记录保存天数',
    minimumDays: 183,
    rule: { zh: 'WS 506: 清洗消毒记录保存期不少于6个月', en: 'WS 506: at least 6 months' },
  },
  [RecordType.sterilisation]: {
    label: { zh: '灭菌记录', en: 'Sterilisation records' },
    param: 'records.retention.sterilisation.days',
    paramName: '灭菌记录保存天数',
    minimumDays: 1096,
    rule: { zh: 'WS 310.3: 灭菌记录保存期不少于3年', en: 'WS 310.3: at least 3 years' },
  },
  [RecordType.waterline]: {
    label: { zh: '水路消毒记录', en: 'Waterline records' },
    param: 'records.retention.waterline.days',
    paramName: '水路消毒记录保存天数',
    minimumDays: 366,
    rule: { zh: 'DB52/T 1696、DB31/T 1363: 水路消毒记录保存期不少于1年', en: 'Waterline standards: at least 1 year' },
  },
};

/** The record type as a select: the labels a list shows (shared with the verification records). */
export const RECORD_TYPE_OPTIONS = {
  items: [
    { value: RecordType.disinfection, label: { zh: '清洗消毒', en: 'Cleaning/disinfection' } },
    { value: RecordType.sterilisation, label: { zh: '灭菌', en: 'Sterilisation' } },
    { value: RecordType.waterline, label: { zh: '水路消毒', en: 'Waterline' } },
  ],
} as const;

/** The device, its code and its department, as on every row a device produces. */
const device = deviceRowFields();

const figure = (zh: string, en: string, scale = 2) =>
  ({
    kind: 'decimal',
    label: { zh, en },
    precision: 12,
    scale,
    nullable: true,
    list: false,
    range: [-1_000_000, 1_000_000],
  }) as const satisfies FieldDef;

const seconds = (zh: string, en: string) =>
  ({ kind: 'int', label: { zh, en }, range: [0, 2147483647], nullable: true, list: false }) as const satisfies FieldDef;

const text = (zh: string, en: string, max = 64) =>
  ({ kind: 'string', label: { zh, en }, max, list: false }) as const satisfies FieldDef;

/**
 * A disinfection / sterilisation / waterline record (DOMAIN.md "Records"): made from a device's
 * finished cycle by the records job, or typed in for a device without telemetry. The record
 * fields (operator, version, chain, review) come from `defineRecordResource`.
 */
export const disinfectionRecordResource = defineRecordResource({
  code: 'disinfection',
  title: { zh: '消毒记录', en: 'Disinfection records' },
  table: 'mes_disinfection_record',
  api: '/blade-business/disinfection',
  listRoute: 'page',
  operations: ['page', 'detail', 'submit', 'remove', 'export'],
  dataScope: { deptColumn: 'dept_id' },
  menu: {
    group: 'business',
    sort: 1,
    icon: 'safety-certificate',
    nameEn: 'Disinfection records',
    // A parametric failure's pack recall (docs/packs.md "Recalls"): its actions and closing.
    buttons: [{ action: 'recall', name: { zh: '召回处理', en: 'Handle recall' }, position: 2 }],
    scopes: [{ action: 'recall', name: '召回处理', path: `/api${RECALL_PATHS[RecallSource.disinfection].action}` }],
  },
  dialogWidth: 960,
  records: {
    chainBy: 'deviceCode',
    retention: { typeField: 'recordType', timeField: 'endTime', types: RECORD_RETENTION },
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
    // Picked on manual entry and fixed afterwards (a record's chain is its device's).
    deviceId: { ...device.deviceId, required: true, form: 'create' },
    deviceCode: device.deviceCode,
    productId: {
      kind: 'reference',
      label: { zh: '产品', en: 'Product' },
      form: 'readonly',
      list: false,
      reference: { to: () => productResource, label: 'productName', onRemove: 'clear' },
    },
    deptId: device.deptId,
    recordType: {
      kind: 'int',
      label: { zh: '记录类型', en: 'Type' },
      form: 'readonly',
      search: true,
      default: RecordType.disinfection,
      width: 110,
      options: RECORD_TYPE_OPTIONS,
    },
    source: {
      kind: 'int',
      label: { zh: '来源', en: 'Source' },
      form: 'readonly',
      default: RecordSource.manual,
      width: 80,
      options: {
        items: [
          { value: RecordSource.cycle, label: { zh: '设备周期', en: 'Device cycle' } },
          { value: RecordSource.manual, label: { zh: '手工录入', en: 'Manual' } },
        ],
      },
    },
    cycleId: { kind: 'id', label: { zh: '设备周期', en: 'Cycle' }, form: false, list: false, nullable: true },
    chairNo: text('牙椅/单元号', 'Chair/unit no', 32),
    programNo: { kind: 'int', label: { zh: '程序号', en: 'Program' }, range: [0, 9999], default: 0, list: false },
    programName: text('程序名称', 'Program name'),
    disinfectant: text('消毒剂', 'Disinfectant'),
    concentration: figure('浓度(mg/L)', 'Concentration (mg/L)'),
    startTime: { kind: 'datetime', label: { zh: '开始时间', en: 'Started' }, required: true, sort: true, width: 160 },
    endTime: {
      kind: 'datetime',
      label: { zh: '结束时间', en: 'Ended' },
      required: true,
      sort: true,
      search: true,
      width: 160,
    },
    durationSeconds: seconds('时长(秒)', 'Duration (s)'),
    maxTemperature: figure('最高温度(℃)', 'Max temperature (°C)'),
    minTemperature: figure('最低温度(℃)', 'Min temperature (°C)'),
    pressure: figure('压力(kPa)', 'Pressure (kPa)'),
    holdSeconds: seconds('维持时间(秒)', 'Hold (s)'),
    flushSeconds: seconds('冲洗时间(秒)', 'Flush (s)'),
    waterVolume: figure('用水量(L)', 'Water volume (L)'),
    batchNo: text('批次号', 'Batch no'),
    todayBatch: {
      kind: 'int',
      label: { zh: '当日批次', en: "Today's batch" },
      range: [0, 99999],
      nullable: true,
      list: false,
    },
    totalBatch: {
      kind: 'int',
      label: { zh: '累计批次', en: 'Total batch' },
      range: [0, 2147483647],
      nullable: true,
      list: false,
    },
    load: text('装载物品', 'Load', 255),
    result: {
      kind: 'int',
      label: { zh: '结果', en: 'Result' },
      required: true,
      range: [1, 3],
      default: 1,
      options: { dict: 'disinfection_result' },
      search: true,
      width: 90,
    },
    failReason: text('失败原因', 'Fail reason', 255),
    ...judgementFields(),
    indicatorResult: text('化学/BD结果', 'Chemical/BD result'),
    verificationNo: text('验证记录', 'Verification'),
  },
  indexes: [
    // Versions of one record share its number and its cycle.
    {
      fields: ['tenantId', 'recordNo', 'recordVersion'],
      unique: true,
      message: { zh: '记录编号已存在', en: 'The record no exists' },
    },
    {
      fields: ['tenantId', 'cycleId', 'recordVersion'],
      unique: true,
      message: { zh: '该周期已有记录', en: 'The cycle has a record' },
    },
    { fields: ['tenantId', 'endTime'] },
  ],
  defaultSort: [{ field: 'endTime', desc: true }],
});

/** `GET /api` + this + `?id=`: a record's cycle curve with its program's validated profile. */
export const DISINFECTION_CURVE_ROUTE = '/blade-business/disinfection/curve';

/** A curve's points as `[epoch ms, value]`. */
export type CurvePoints = [number, number][];

export type LethalityKind = (typeof LETHALITY_KINDS)[number];

/**
 * A program's validated profile, as the judgement reads it and the curve reply sends it; an
 * absent limit is not judged.
 */
export interface ValidatedProfile {
  lethalityKind: LethalityKind;
  plateauMin: number | null;
  plateauMax: number | null;
  minHoldSeconds: number | null;
  pressureMin: number | null;
  pressureMax: number | null;
  minConcentration: number | null;
  /** The least A0 (s) or F0 (min) the cycle must deliver. */
  minLethality: number | null;
}

/**
 * The curve of a record's cycle (docs/lethality.md): the raw points between its start and end,
 * the profile of its program (null when the program has none or is gone) and the hold the
 * points prove (null when none).
 */
export interface CycleCurveReply {
  startTime: number;
  endTime: number;
  profile: ValidatedProfile | null;
  temperature: CurvePoints;
  pressure: CurvePoints;
  concentration: CurvePoints;
  holdStart: number | null;
  holdEnd: number | null;
}

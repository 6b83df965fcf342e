import { defineResource, type FieldDef } from '../../engine/define';
import { deviceRowFields } from './device-row-fields';

/**
 * `parametricResult` of a cycle judged against its program's validated profile (docs/lethality.md):
 * empty until the records job has judged it, 0 when the program has no profile.
 */
export const ParametricResult = { none: 0, pass: 1, fail: 2 } as const;

/**
 * The judgement's columns, on the cycle and on its record: the lethality the profile asks for
 * (A0 in s, F0 in min), the hold the points prove, the parametric result and its reasons.
 */
export const judgementFields = () =>
  ({
    lethalityKind: {
      kind: 'string',
      label: { zh: '致死值类型', en: 'Lethality kind' },
      max: 4,
      nullable: true,
      form: 'readonly',
      list: false,
    },
    lethality: {
      kind: 'decimal',
      label: { zh: 'A0(秒)/F0(分钟)', en: 'A0 (s) / F0 (min)' },
      precision: 14,
      scale: 2,
      nullable: true,
      form: 'readonly',
      width: 110,
    },
    holdAchievedSeconds: {
      kind: 'int',
      label: { zh: '实际维持(秒)', en: 'Hold achieved (s)' },
      range: [0, 2147483647],
      nullable: true,
      form: 'readonly',
      list: false,
    },
    parametricResult: {
      kind: 'int',
      label: { zh: '参数放行', en: 'Parametric' },
      range: [0, 2],
      nullable: true,
      form: 'readonly',
      width: 100,
      options: {
        items: [
          { value: ParametricResult.none, label: { zh: '未判定', en: 'Not judged' } },
          { value: ParametricResult.pass, label: { zh: '合格', en: 'Pass' } },
          { value: ParametricResult.fail, label: { zh: '不合格', en: 'Fail' } },
        ],
      },
    },
    parametricReason: {
      kind: 'string',
      label: { zh: '参数判定原因', en: 'Parametric reason' },
      max: 1000,
      nullable: true,
      form: 'readonly',
      list: false,
    },
  }) as const satisfies Record<string, FieldDef>;

/** `result` of a cycle (dictionary disinfection_result). */
export const CycleResult = { pass: 1, fail: 2, aborted: 3 } as const;

const figure = (zh: string, en: string) =>
  ({
    kind: 'decimal',
    label: { zh, en },
    precision: 12,
    scale: 2,
    nullable: true,
    list: false,
  }) as const satisfies FieldDef;

/**
 * A finished cycle as a device reported it on `mes/{tenant}/{device}/cycle` (docs/mqtt.md), one
 * row per device and start time (a redelivered report changes nothing). Written by ingestion in
 * the batch's transaction together with the per-day counts (`mes_device_cycle_day`) the welcome
 * page reads; the disinfection records of the business module are made from these rows.
 */
export const deviceCycleResource = defineResource({
  code: 'device_cycle',
  title: { zh: '设备运行周期', en: 'Device cycles' },
  table: 'mes_device_cycle',
  api: '/basic/device-cycle',
  owner: 'tenant',
  audit: false,
  dataScope: { deptColumn: 'dept_id' },
  operations: ['page', 'detail', 'export'],
  listRoute: 'page',
  menu: { group: 'device', sort: 12, icon: 'history', nameEn: 'Device cycles' },
  fields: {
    ...deviceRowFields(),
    programNo: { kind: 'int', label: { zh: '程序号', en: 'Program' }, range: [0, 9999], default: 0, width: 80 },
    programName: { kind: 'string', label: { zh: '程序名称', en: 'Program name' }, max: 64, width: 120 },
    startTime: {
      kind: 'datetime',
      label: { zh: '开始时间', en: 'Started' },
      sort: true,
      search: true,
      width: 160,
    },
    endTime: { kind: 'datetime', label: { zh: '结束时间', en: 'Ended' }, sort: true, width: 160 },
    durationSeconds: {
      kind: 'int',
      label: { zh: '时长(秒)', en: 'Duration (s)' },
      range: [0, 2147483647],
      default: 0,
      width: 90,
    },
    result: {
      kind: 'int',
      label: { zh: '结果', en: 'Result' },
      range: [1, 3],
      default: CycleResult.pass,
      options: { dict: 'disinfection_result' },
      search: true,
      width: 90,
    },
    faultCode: {
      kind: 'int',
      label: { zh: '故障码', en: 'Fault code' },
      range: [0, 2147483647],
      default: 0,
      width: 80,
    },
    maxTemperature: figure('最高温度(℃)', 'Max temperature (°C)'),
    minTemperature: figure('最低温度(℃)', 'Min temperature (°C)'),
    maxPressure: figure('最高压力(kPa)', 'Max pressure (kPa)'),
    minConcentration: figure('最低浓度(mg/L)', 'Min concentration (mg/L)'),
    holdSeconds: {
      kind: 'int',
      label: { zh: '维持时间(秒)', en: 'Hold (s)' },
      range: [0, 2147483647],
      nullable: true,
      list: false,
    },
    ...judgementFields(),
    // Every figure the device sent, as sent (the columns above are the ones reports read).
    figures: {
      kind: 'json',
      label: { zh: '周期数据', en: 'Figures' },
      schema: { type: 'object' },
      nullable: true,
      display: 'json',
      list: false,
    },
  },
  indexes: [
    {
      fields: ['tenantId', 'deviceCode', 'startTime'],
      unique: true,
      message: { zh: '该设备此时刻的周期已存在', en: 'The cycle exists' },
    },
    { fields: ['tenantId', 'endTime'] },
  ],
  defaultSort: [{ field: 'endTime', desc: true }],
});

import type { ReportMeasure, ReportPeriod } from './report-spec';

/** A template every tenant has (seeded at start and when a tenant is created), by `code`. */
export interface BuiltInReport {
  code: string;
  name: string;
  source: string;
  dateField: string;
  period: ReportPeriod | '';
  groupBy: string[];
  measures: ReportMeasure[];
  columns: string[];
  remark: string;
  /**
   * What an earlier release seeded: a tenant's copy still as it was is brought to this shape at
   * start (one the tenant changed is left alone).
   */
  before?: { period: ReportPeriod | ''; groupBy: string[] };
}

/**
 * The built-in reports (issue 18). The monthly disinfection ledger is a register (issue 30): the
 * records themselves, one line each, in sections of month × department closed by subtotals
 * (records, and the packs their loads held), for the current month unless the run names another.
 * Batch and load come from the record, or from the load of its cycle (docs/packs.md).
 */
export const BUILT_IN_REPORTS: readonly BuiltInReport[] = [
  {
    code: 'builtin.disinfection-ledger-monthly',
    name: '月度消毒登记台账',
    source: 'disinfection',
    dateField: 'startTime',
    period: 'month',
    groupBy: ['deptId'],
    measures: [
      { fn: 'count', label: { zh: '记录数', en: 'Records' } },
      { fn: 'sum', field: 'loadedPacks', label: { zh: '器械包数', en: 'Packs' } },
    ],
    columns: [
      'recordNo',
      'deviceCode',
      'recordType',
      'programName',
      'startTime',
      'endTime',
      'batchNo',
      'load',
      'result',
      'lethality',
      'holdAchievedSeconds',
      'parametricResult',
      'operatorName',
    ],
    remark: '按月和机构分节列出每条清洗消毒/灭菌记录,每节小计记录数和器械包数 (A4 登记本)',
    // Before issue 30 it listed every record of every date in one run.
    before: { period: '', groupBy: [] },
  },
  {
    code: 'builtin.lethality-by-device-monthly',
    name: 'A0/F0 与参数放行(按月和设备)',
    source: 'disinfection',
    dateField: 'endTime',
    period: 'month',
    groupBy: ['deviceCode', 'lethalityKind', 'parametricResult'],
    measures: [
      { fn: 'count', label: { zh: '记录数', en: 'Records' } },
      { fn: 'min', field: 'lethality', label: { zh: '最低A0/F0', en: 'Min A0/F0' } },
      { fn: 'avg', field: 'lethality', label: { zh: '平均A0/F0', en: 'Avg A0/F0' } },
      { fn: 'min', field: 'holdAchievedSeconds', label: { zh: '最短实际维持(秒)', en: 'Min hold achieved (s)' } },
    ],
    columns: [],
    remark: '按月、设备、致死值类型(A0 秒 / F0 分钟)和参数放行结果汇总记录 (docs/lethality.md)',
  },
  {
    code: 'builtin.warnings-by-device-level',
    name: '告警统计(按设备和级别)',
    source: 'warning',
    dateField: 'startTime',
    period: '',
    groupBy: ['deviceCode', 'level'],
    measures: [
      { fn: 'count', label: { zh: '告警数', en: 'Warnings' } },
      { fn: 'sum', field: 'repeatCount', label: { zh: '发生次数', en: 'Occurrences' } },
    ],
    columns: [],
    remark: '期间内开始的告警,按设备和级别计数',
  },
  {
    code: 'builtin.device-online-daily',
    name: '设备在线时长(按日)',
    source: 'onoff',
    dateField: 'onTime',
    period: 'day',
    groupBy: ['deviceCode'],
    measures: [
      { fn: 'sum', field: 'durationSeconds', label: { zh: '在线时长(秒)', en: 'Online (s)' } },
      { fn: 'count', label: { zh: '上线次数', en: 'Connections' } },
    ],
    columns: [],
    remark: '按上线日期和设备汇总已结束的在线时段',
  },
  {
    code: 'builtin.verification-results',
    name: '验证结果与召回',
    source: 'verification',
    dateField: 'testTime',
    period: '',
    groupBy: ['deviceCode', 'verificationType', 'result'],
    measures: [
      { fn: 'count', label: { zh: '验证次数', en: 'Tests' } },
      { fn: 'countTrue', field: 'recallTriggered', label: { zh: '触发召回', en: 'Recalls' } },
    ],
    columns: [],
    remark: '期间内的验证记录,按设备、验证类型和结果计数;触发召回的次数',
  },
];

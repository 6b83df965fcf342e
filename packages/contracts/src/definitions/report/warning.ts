import { defineResource, type FieldDef } from '../../engine/define';
import { deviceRowFields } from '../device/device-row-fields';
import { ALARM_RULE_TYPE_NAMES, ALARM_RULE_TYPES } from '../device/model-rules';
import type { FieldLimits } from '../telemetry/iot-api';

/** The API path of `handle` (`POST`, body `{ ids, result }`): acknowledges warnings the caller may see. */
export const WARNING_HANDLE_PATH = '/report/warning/handle';

/** `status` (dictionary warning_status): whether the condition still holds × whether someone handled it. */
export const WarningStatus = { activeUnhandled: 1, activeHandled: 2, clearedUnhandled: 3, clearedHandled: 4 } as const;
/**
 * `warningType` of the critical warning a failed biological indicator raises (verification
 * records, docs/records.md); the other types are the alarm rules' (dictionary warning_type).
 */
export const INDICATOR_WARNING_TYPE = 'indicator';
/**
 * `warningType` of the critical warning a cycle's failed parametric judgement raises when it
 * recalls the packs of its load (docs/packs.md "Recalls").
 */
export const PARAMETRIC_WARNING_TYPE = 'parametric';
/** `warningType` of the warning a pack past its validity raises at the clinic holding it (docs/packs.md). */
export const PACK_EXPIRY_WARNING_TYPE = 'pack-expiry';
/** `level` (dictionary warning_level). */
export const WarningLevel = { critical: 1, major: 2, minor: 3, warning: 4 } as const;

/** What `handle` takes (JSON or form): `ids` comma-joined (or a JSON array), `result` required. */
export interface WarningHandleBody {
  ids: string;
  result: string;
}
/** `handle`: at most this many ids per call, and a result of at most this many characters. */
export const WARNING_HANDLE_MAX_IDS = 500;
export const WARNING_RESULT_MAX = 500;
/** A cleared warning nobody handled is re-opened (not duplicated) by the same rule within this many minutes. */
export const WARNING_REOPEN_MINUTES = 10;

/**
 * The unhandled warnings (status 1 or 3: nobody has handled them yet), which every "open warnings"
 * figure counts — the bell's badge and its 告警 tab, the welcome page and the wall screen
 * (docs/warnings.md). Of the caller's tenant and device data scope.
 */
export const UNHANDLED_WARNING_STATUSES = [WarningStatus.activeUnhandled, WarningStatus.clearedUnhandled] as const;
/** `GET /report/warning/unhandled`: the exact count of the unhandled warnings and the newest of them. */
export const WARNING_UNHANDLED_PATH = '/report/warning/unhandled';
/** How many of the newest unhandled warnings a reply lists (the count is exact). */
export const UNHANDLED_WARNING_LIST_SIZE = 10;

/** An unhandled warning as the bell and the welcome page list it. */
export interface UnhandledWarningRow {
  id: string;
  warningNo: string;
  deviceCode: string;
  deviceName: string | null;
  level: number;
  status: number;
  message: string;
  startTime: string | null;
}

/** `data` of `GET /report/warning/unhandled`: `total` exact, `records` the newest first. */
export interface UnhandledWarningsReply {
  total: number;
  records: UnhandledWarningRow[];
}

/** `GET /report/warning/around?id=`: the trigger field's telemetry around the warning, for its chart. */
export const WARNING_AROUND_PATH = '/report/warning/around';
export interface WarningAroundReply {
  field: string;
  unit: string;
  from: string;
  to: string;
  threshold: string | null;
  points: { ts: string; value: number }[];
  /** The field's HH / H / L / LL from its PLC variable (as model-data gives them); null: none set. */
  limits: FieldLimits | null;
}

const time = (zh: string, en: string) =>
  ({ kind: 'datetime', label: { zh, en }, nullable: true, form: 'readonly', width: 160 }) as const satisfies FieldDef;

/**
 * A warning (alarm) of one device: raised by the alarm rules in the ingestion path (docs/warnings.md),
 * one open row per device and rule — a repeat of the same condition counts up `repeatCount` on it
 * instead of adding rows — cleared when the condition ends, acknowledged by `handle` with a result.
 * Written by the alarm engine and `handle` only: the screen lists, shows and handles.
 */
export const warningResource = defineResource({
  code: 'warning',
  title: { zh: '告警信息', en: 'Warnings' },
  table: 'mes_warning',
  api: '/report/warning',
  owner: 'tenant',
  // A warning belongs to its device's department: lists, details and handle follow the data scope.
  dataScope: { deptColumn: 'dept_id' },
  operations: ['list', 'detail', 'export'],
  dialogWidth: 900,
  menu: {
    group: 'report',
    sort: 5,
    icon: 'alert',
    nameEn: 'Warnings',
    buttons: [{ action: 'handle', name: { zh: '处理', en: 'Handle' } }],
    scopes: [{ action: 'handle', name: '告警处理', path: `/api${WARNING_HANDLE_PATH}` }],
    dictionaries: [
      {
        code: 'alarm_rule_type',
        name: '告警类型',
        entries: ALARM_RULE_TYPES.map(
          (type) => [type, ALARM_RULE_TYPE_NAMES[type].zh, ALARM_RULE_TYPE_NAMES[type].en] as const,
        ),
      },
      {
        // What a warning is about: the alarm rules' types, and the warnings raised by records.
        code: 'warning_type',
        name: '告警类型',
        entries: [
          ...ALARM_RULE_TYPES.map(
            (type) => [type, ALARM_RULE_TYPE_NAMES[type].zh, ALARM_RULE_TYPE_NAMES[type].en] as const,
          ),
          [INDICATOR_WARNING_TYPE, '生物指示物不合格', 'Indicator failure'],
          [PACK_EXPIRY_WARNING_TYPE, '器械包过期', 'Pack expired'],
          [PARAMETRIC_WARNING_TYPE, '参数放行不合格', 'Parametric release failed'],
        ],
      },
    ],
  },
  fields: {
    warningNo: {
      kind: 'string',
      label: { zh: '告警编号', en: 'Warning no.' },
      max: 32,
      form: 'readonly',
      search: true,
      sort: true,
      width: 170,
    },
    // At 1440 px the key columns (level, message, start, status) stay beside the action column;
    // the rest show from 1600 px, and always in the view.
    ...deviceRowFields(['deviceId', 'deptId']),
    warningType: {
      kind: 'string',
      label: { zh: '告警类型', en: 'Type' },
      max: 16,
      form: 'readonly',
      options: { dict: 'warning_type' },
      search: true,
      width: 120,
      listPriority: 'low',
    },
    level: {
      kind: 'int',
      label: { zh: '级别', en: 'Level' },
      range: [1, 4],
      default: 2,
      form: 'readonly',
      options: { dict: 'warning_level' },
      search: true,
      sort: true,
      width: 90,
    },
    // What the rule watches: `ruleType:ruleId[:limit]` (threshold:12, limit:7:HH, offline, cycle:3).
    ruleKey: { kind: 'string', label: { zh: '规则', en: 'Rule' }, max: 64, form: 'readonly', list: false },
    field: {
      kind: 'string',
      label: { zh: '字段', en: 'Field' },
      max: 64,
      form: 'readonly',
      search: true,
      width: 110,
      listPriority: 'low',
    },
    triggerValue: {
      kind: 'string',
      label: { zh: '触发值', en: 'Trigger value' },
      max: 64,
      form: 'readonly',
      width: 100,
      listPriority: 'low',
    },
    threshold: {
      kind: 'string',
      label: { zh: '阈值', en: 'Threshold' },
      max: 64,
      form: 'readonly',
      width: 100,
      listPriority: 'low',
    },
    message: {
      kind: 'string',
      label: { zh: '告警内容', en: 'Message' },
      max: 500,
      form: 'readonly',
      wide: true,
      width: 240,
    },
    startTime: { ...time('开始时间', 'Started'), sort: true, search: true },
    lastTime: { ...time('最近发生', 'Last seen'), list: false },
    endTime: { ...time('结束时间', 'Ended'), listPriority: 'low' },
    ackTime: { ...time('确认时间', 'Acknowledged'), list: false },
    clearTime: { ...time('恢复时间', 'Cleared'), list: false },
    status: {
      kind: 'int',
      label: { zh: '状态', en: 'Status' },
      range: [1, 4],
      default: WarningStatus.activeUnhandled,
      form: 'readonly',
      options: { dict: 'warning_status' },
      search: true,
      width: 120,
    },
    repeatCount: {
      kind: 'int',
      label: { zh: '重复次数', en: 'Repeats' },
      default: 1,
      range: [0, 2147483647],
      form: 'readonly',
      sort: true,
      width: 90,
      listPriority: 'low',
    },
    handleUser: { kind: 'id', label: { zh: '处理人', en: 'Handler' }, nullable: true, form: 'readonly', list: false },
    handleUserName: {
      kind: 'string',
      label: { zh: '处理人', en: 'Handler' },
      max: 64,
      form: 'readonly',
      width: 100,
      listPriority: 'low',
    },
    handleResult: {
      kind: 'string',
      label: { zh: '处理结果', en: 'Result' },
      max: 500,
      form: 'readonly',
      wide: true,
      list: false,
    },
    handleTime: { ...time('处理时间', 'Handled'), list: false },
  },
  indexes: [
    {
      fields: ['tenantId', 'warningNo'],
      unique: true,
      message: { zh: '告警编号已存在', en: 'The warning no. exists' },
    },
    { fields: ['tenantId', 'startTime'] },
    { fields: ['tenantId', 'status'] },
    { fields: ['tenantId', 'deviceCode', 'ruleKey'] },
  ],
  defaultSort: [{ field: 'startTime', desc: true }],
});

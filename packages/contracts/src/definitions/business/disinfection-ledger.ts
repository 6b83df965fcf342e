import { defineAggregate } from '../../engine/aggregate';
import { addDays, parseDay } from '../../engine/calendar-day';
import type { FieldDef, LocalText } from '../../engine/define';
import { WELCOME_TIME_ZONE } from '../desk/welcome-api';
import { deviceRowFields } from '../device/device-row-fields';
import { disinfectionRecordResource } from './disinfection-record';
import { verificationRecordResource } from './verification-record';

/** `GET /api` + this: the ledger as a page (the records' own prefix, as the spec names it). */
export const DISINFECTION_LEDGER_ROUTE = '/blade-business/disinfection/ledger';

/** `period`: one row per day, or per calendar month, of each department and device. */
export const LedgerPeriod = { day: 'day', month: 'month' } as const;
export type LedgerPeriod = (typeof LedgerPeriod)[keyof typeof LedgerPeriod];

/**
 * Days and months are those of the product's time zone, as on the welcome page and in the
 * per-day cycle counts (Asia/Shanghai keeps UTC+8 all year).
 */
export const LEDGER_TIME_ZONE = WELCOME_TIME_ZONE;

/**
 * The longest range one request may cover: a year of days, ten years of months. A ledger is read
 * a month or a year at a time; the bound keeps one request from summing a tenant's whole history.
 */
export const LEDGER_MAX_DAYS = 366;
export const LEDGER_MAX_MONTHS = 120;

/** The query parameters of the ledger besides the filters of its fields. */
export const LEDGER_PARAMS = ['period', 'startDate', 'endDate'] as const;

const device = deviceRowFields();

const count = (zh: string, en: string, sort = false) =>
  ({ kind: 'int', label: { zh, en }, sort, width: 90 }) as const satisfies FieldDef;

const amount = (zh: string, en: string, scale: number, width = 110) =>
  ({
    kind: 'decimal',
    label: { zh, en },
    precision: 14,
    scale,
    nullable: true,
    sort: true,
    width,
  }) as const satisfies FieldDef;

/**
 * 消毒台账 (DOMAIN.md "Disinfection ledger", docs/records.md "Ledger"): the current versions of
 * the disinfection records summed per period (day or month) × department × device, with the
 * device's chairs and the warnings its device raised in the period. A query aggregate: the
 * business module supplies the query; the engine pages, sorts, filters, exports and scopes it.
 *
 * The last verification result joins here once the verification records exist (see the docs).
 */
export const disinfectionLedgerResource = defineAggregate({
  code: 'disinfection_ledger',
  title: { zh: '消毒台账', en: 'Disinfection ledger' },
  api: DISINFECTION_LEDGER_ROUTE,
  owner: 'tenant',
  // A row is one department's: the data scope by department applies as to the records.
  dataScope: { deptColumn: 'dept_id' },
  source: { query: true, key: 'text' },
  operations: ['list', 'export'],
  menu: {
    group: 'business',
    sort: 3,
    icon: 'book',
    path: '/business/ledger',
    nameEn: 'Disinfection ledger',
    buttons: [{ action: 'print', name: { zh: '打印', en: 'Print' }, position: 1 }],
  },
  fields: {
    period: {
      kind: 'string',
      label: { zh: '统计周期', en: 'Period' },
      max: 8,
      list: false,
      options: {
        items: [
          { value: LedgerPeriod.day, label: { zh: '日', en: 'Day' } },
          { value: LedgerPeriod.month, label: { zh: '月', en: 'Month' } },
        ],
      },
    },
    periodStart: { kind: 'date', label: { zh: '日期', en: 'Date' }, sort: true, width: 110 },
    deptId: device.deptId,
    deviceId: device.deviceId,
    deviceCode: { ...device.deviceCode, sort: true },
    recordType: disinfectionRecordResource.fields.recordType,
    chairs: count('牙椅数', 'Chairs'),
    cycles: count('消毒次数', 'Cycles', true),
    passes: count('合格', 'Passed', true),
    fails: count('不合格', 'Failed', true),
    aborts: count('中止', 'Aborted', true),
    // Packs that went into the loads of the period's cycles (docs/packs.md).
    packs: count('器械包数', 'Packs', true),
    totalMinutes: amount('总时长(分钟)', 'Minutes', 1),
    avgConcentration: amount('平均浓度(mg/L)', 'Avg conc. (mg/L)', 2, 120),
    minConcentration: amount('最低浓度(mg/L)', 'Min conc. (mg/L)', 2, 120),
    waterVolume: amount('用水量(L)', 'Water (L)', 2),
    disinfectantMg: amount('消毒剂用量(mg)', 'Disinfectant (mg)', 2, 120),
    warnings: count('告警数', 'Warnings', true),
    // The cycles' lethality (docs/lethality.md): least and mean of the records judged by A0 / F0.
    minA0: amount('最低A0(秒)', 'Min A0 (s)', 2),
    avgA0: amount('平均A0(秒)', 'Avg A0 (s)', 2),
    minF0: amount('最低F0(分钟)', 'Min F0 (min)', 2),
    avgF0: amount('平均F0(分钟)', 'Avg F0 (min)', 2),
    parametricFails: count('参数不合格', 'Parametric fails', true),
    // The device's newest verification (current version) tested before the period ended.
    lastVerificationType: {
      ...verificationRecordResource.fields.verificationType,
      label: { zh: '最近验证', en: 'Last verification' },
      required: false,
      nullable: true,
      search: false,
      default: undefined,
      width: 130,
    },
    lastVerificationResult: {
      ...verificationRecordResource.fields.result,
      label: { zh: '验证结果', en: 'Verification result' },
      required: false,
      nullable: true,
      search: false,
      default: undefined,
    },
    lastVerificationTime: {
      kind: 'datetime',
      label: { zh: '验证时间', en: 'Verified at' },
      nullable: true,
      width: 160,
    },
    // How many cycles reported a concentration: weighs each row's average in a total.
    concentrationCount: { kind: 'int', label: { zh: '浓度记录数', en: 'Conc. readings' }, list: false },
  },
  defaultSort: [{ field: 'periodStart' }, { field: 'deptId' }, { field: 'deviceCode' }],
});

/** One ledger row as the list sends it (decimals as text with their scale, days as yyyy-MM-dd). */
export interface LedgerRow {
  id: string;
  period: LedgerPeriod;
  periodStart: string;
  deptId: string | null;
  /** The department's name (the reference's display name). */
  deptIdName: string;
  deviceId: string | null;
  /** The device's name; '' once the device is removed. */
  deviceIdName: string;
  deviceCode: string;
  recordType: number;
  chairs: number | null;
  cycles: number;
  passes: number;
  fails: number;
  aborts: number;
  /** Packs that went into the loads of the row's cycles. */
  packs: number;
  totalMinutes: string | null;
  avgConcentration: string | null;
  minConcentration: string | null;
  waterVolume: string | null;
  disinfectantMg: string | null;
  warnings: number;
  minA0: string | null;
  avgA0: string | null;
  minF0: string | null;
  avgF0: string | null;
  parametricFails: number;
  concentrationCount: number;
  /** The newest verification of the device tested before the period ended (null: none yet). */
  lastVerificationType: number | null;
  lastVerificationResult: number | null;
  lastVerificationTime: string | null;
}

/** What the ledger covers: its period and the first and last day asked for (yyyy-MM-dd). */
export interface LedgerRange {
  period: LedgerPeriod;
  startDate: string;
  endDate: string;
}

/** A refused parameter: its name and why, in both languages. */
export interface LedgerRangeError {
  param: (typeof LEDGER_PARAMS)[number];
  why: LocalText;
}

const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
/** The last day of the month of `day`: the day before the first of the next month. */
function lastOfMonth(day: string): string {
  const next = addDays(firstOfMonth(day), 31) ?? day;
  return addDays(firstOfMonth(next), -1) ?? day;
}

/** `yyyy-MM-dd`, or `yyyy-MM` for its first (`start`) or last (`end`) day. */
function dayParam(raw: string, end: boolean): string | undefined {
  const month = /^\d{4}-\d{2}$/.test(raw.trim()) ? parseDay(`${raw.trim()}-01`) : undefined;
  if (month) return end ? lastOfMonth(month) : month;
  return parseDay(raw);
}

/**
 * The range a ledger request covers, checked the same way in the browser and on the server.
 * `today` is today's date in {@link LEDGER_TIME_ZONE}. Without dates it is today's month; a date
 * given alone stands for its month's other end. A monthly ledger covers the months the range
 * touches (its start is taken back to the first of its month). Longer than
 * {@link LEDGER_MAX_DAYS} days (by day) or {@link LEDGER_MAX_MONTHS} months (by month) is refused.
 */
export function ledgerRange(query: Record<string, unknown>, today: string): LedgerRange | LedgerRangeError {
  const text = (param: LedgerRangeError['param']): string | LedgerRangeError | undefined => {
    const raw = query[param];
    if (raw === undefined || raw === null || raw === '') return undefined;
    if (typeof raw !== 'string') return { param, why: { zh: '只能有一个值', en: 'give one value' } };
    return raw;
  };
  const period = text('period');
  if (typeof period === 'object') return period;
  if (period !== undefined && period !== LedgerPeriod.day && period !== LedgerPeriod.month)
    return { param: 'period', why: { zh: '应为 day 或 month', en: 'must be day or month' } };
  const days: Partial<Record<'startDate' | 'endDate', string>> = {};
  for (const param of ['startDate', 'endDate'] as const) {
    const raw = text(param);
    if (typeof raw === 'object') return raw;
    if (raw === undefined) continue;
    const day = dayParam(raw, param === 'endDate');
    if (!day)
      return {
        param,
        why: { zh: '应为日期 yyyy-MM-dd 或月份 yyyy-MM', en: 'must be a date yyyy-MM-dd or a month yyyy-MM' },
      };
    days[param] = day;
  }
  const byMonth = period === LedgerPeriod.month;
  const start = days.startDate ?? firstOfMonth(days.endDate ?? today);
  const endDate = days.endDate ?? lastOfMonth(days.startDate ?? today);
  const startDate = byMonth ? firstOfMonth(start) : start;
  if (endDate < startDate)
    return { param: 'endDate', why: { zh: '结束日期不能早于开始日期', en: 'the end date is before the start date' } };
  if (byMonth && monthIndex(endDate) - monthIndex(startDate) + 1 > LEDGER_MAX_MONTHS)
    return {
      param: 'endDate',
      why: {
        zh: `按月统计的范围不能超过 ${LEDGER_MAX_MONTHS} 个月`,
        en: `a monthly ledger covers at most ${LEDGER_MAX_MONTHS} months`,
      },
    };
  if (!byMonth && (addDays(startDate, LEDGER_MAX_DAYS) ?? '9999-12-31') <= endDate)
    return {
      param: 'endDate',
      why: {
        zh: `按日统计的范围不能超过 ${LEDGER_MAX_DAYS} 天`,
        en: `a daily ledger covers at most ${LEDGER_MAX_DAYS} days`,
      },
    };
  return { period: byMonth ? LedgerPeriod.month : LedgerPeriod.day, startDate, endDate };
}

export const isLedgerRangeError = (range: LedgerRange | LedgerRangeError): range is LedgerRangeError => 'why' in range;

import {
  LEDGER_TIME_ZONE,
  LedgerPeriod,
  REGISTRY,
  systemDictionariesOf,
  type LedgerRow,
  type LocalText,
} from '@mes/contracts';

/** Today in the ledger's time zone (the server's days are that zone's). */
export const ledgerToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: LEDGER_TIME_ZONE }).format(new Date());

/** A period's start as a reader names it: the day, or the month of a monthly row. */
export const periodText = (start: string, period: string) =>
  period === LedgerPeriod.month ? start.slice(0, 7) : start;

/** The register's totals row: sums, the lowest minimum, and averages weighed by readings. */
export interface LedgerTotals {
  cycles: number;
  passes: number;
  fails: number;
  aborts: number;
  totalMinutes: string;
  avgConcentration: string;
  minConcentration: string;
  waterVolume: string;
  disinfectantMg: string;
  warnings: number;
}

/** Decimal text (`"12.50"`) summed in hundredths, so the total is the sum of the printed figures. */
const hundredths = (value: string | null) => (value === null || value === '' ? 0 : Math.round(Number(value) * 100));
const fixed = (cents: number, scale: number) => (cents / 100).toFixed(scale);

/**
 * What the register's 合计 row shows for `rows`. The average concentration of the whole range
 * is each row's average weighed by how many of its cycles reported a concentration (a plain
 * mean of the rows' averages would count a row of one reading like a row of fifty); '' where no
 * cycle reported one.
 */
export function ledgerTotals(rows: readonly LedgerRow[]): LedgerTotals {
  let readings = 0;
  let weighed = 0;
  let lowest: number | undefined;
  const sum = (pick: (r: LedgerRow) => number) => rows.reduce((n, r) => n + pick(r), 0);
  for (const r of rows) {
    if (r.avgConcentration !== null && r.concentrationCount > 0) {
      readings += r.concentrationCount;
      weighed += Number(r.avgConcentration) * r.concentrationCount;
    }
    if (r.minConcentration !== null) {
      const min = Number(r.minConcentration);
      lowest = lowest === undefined ? min : Math.min(lowest, min);
    }
  }
  return {
    cycles: sum((r) => r.cycles),
    passes: sum((r) => r.passes),
    fails: sum((r) => r.fails),
    aborts: sum((r) => r.aborts),
    totalMinutes: fixed(
      sum((r) => hundredths(r.totalMinutes)),
      1,
    ),
    avgConcentration: readings ? (weighed / readings).toFixed(2) : '',
    minConcentration: lowest === undefined ? '' : lowest.toFixed(2),
    waterVolume: fixed(
      sum((r) => hundredths(r.waterVolume)),
      2,
    ),
    disinfectantMg: fixed(
      sum((r) => hundredths(r.disinfectantMg)),
      2,
    ),
    warnings: sum((r) => r.warnings),
  };
}

/** A system dictionary's label by code and key, in both languages (the registry declares them). */
const DICTIONARY_LABELS = new Map(
  systemDictionariesOf(REGISTRY).map((d) => [
    d.code,
    new Map(d.entries.map(([key, zh, en]) => [key, { zh, en: en ?? zh }] as const)),
  ]),
);

/**
 * The register's 最近验证 cell: the type and result of the device's newest verification before the
 * period ended, with its day (`BD测试 合格 11-02`); '' when the device has none yet.
 */
export function lastVerificationText(row: LedgerRow, lang: keyof LocalText): string {
  if (row.lastVerificationType === null || row.lastVerificationResult === null) return '';
  const label = (code: string, key: number) => DICTIONARY_LABELS.get(code)?.get(String(key))?.[lang] ?? String(key);
  const day = row.lastVerificationTime?.slice(5, 10) ?? '';
  return `${label('verification_type', row.lastVerificationType)} ${label('verification_result', row.lastVerificationResult)} ${day}`.trim();
}

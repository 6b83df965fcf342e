import { enumEntryOf, type LocalText, type ModelDataItem } from '@mes/contracts';

/** A value older than this is stale whatever the product allows (ten minutes). */
export const STALE_CAP_SECONDS = 600;

/** Texts the formatters need, so they stay pure (the page passes its `t`). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A model field's value as shown on its card: numbers with the field's precision, booleans as
 * yes / no, text as it came; null when no value was received yet.
 */
export function formatValue(
  item: Pick<ModelDataItem, 'value' | 'dataType' | 'precision'>,
  t: Translate,
): string | null {
  const { value, dataType, precision } = item;
  if (value === null || value === undefined || value === '') return null;
  if (dataType === 'bool') return Number(value) ? t('live.yes') : t('live.no');
  if (dataType === 'int' || dataType === 'float') {
    const n = Number(value);
    if (!Number.isFinite(n)) return String(value);
    return n.toFixed(dataType === 'int' ? 0 : Math.max(0, Math.min(6, precision)));
  }
  return String(value);
}

/**
 * The name the field's enumeration gives the value (phase 3 → 灭菌 / Sterilising), or undefined
 * when it names none: the card and the rows then show the value as {@link formatValue} has it.
 */
export function valueName(
  item: Pick<ModelDataItem, 'field' | 'value'> & { enumeration?: ModelDataItem['enumeration'] },
  lang: keyof LocalText,
): string | undefined {
  if (!item.enumeration?.length) return undefined;
  return enumEntryOf([{ fieldKey: item.field, enumeration: item.enumeration }], item.field, item.value)?.[lang];
}

/** "3 秒前" / "3 s ago": seconds under a minute, then minutes, hours, days. */
export function ageText(seconds: number, t: Translate): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 1) return t('live.now');
  if (s < 60) return t('age.seconds', { count: s });
  if (s < 3600) return t('age.minutes', { count: Math.floor(s / 60) });
  if (s < 86_400) return t('age.hours', { count: Math.floor(s / 3600) });
  return t('age.days', { count: Math.floor(s / 86_400) });
}

/**
 * A value's age now: the server's age at its reply plus the time since that reply, so a clock
 * that differs between browser and server does not make values look fresh or old.
 */
export function ageNow(ageSeconds: number | null, repliedAt: number, now: number): number | null {
  if (ageSeconds === null) return null;
  return ageSeconds + Math.max(0, now - repliedAt) / 1000;
}

/** Stale: older than the product's inactivity timeout, or than ten minutes. */
export function isStale(age: number | null, inactivitySeconds: number | undefined): boolean {
  if (age === null) return false;
  return age > Math.min(inactivitySeconds ?? STALE_CAP_SECONDS, STALE_CAP_SECONDS);
}

/** A bucket width for the chart's caption: "5 分钟" / "5 min". */
export function durationText(seconds: number, t: Translate): string {
  if (seconds < 60) return t('unit.s', { count: seconds });
  if (seconds < 3600) return t('unit.min', { count: Math.round(seconds / 60) });
  return t('unit.h', { count: Math.round(seconds / 3600) });
}

/** Fields a line can be drawn of: numbers, booleans (0 / 1) and enums (their stored numbers). */
export const isChartable = (item: Pick<ModelDataItem, 'dataType'>) =>
  item.dataType === 'int' || item.dataType === 'float' || item.dataType === 'bool' || item.dataType === 'enum';

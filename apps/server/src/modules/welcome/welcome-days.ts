import { WELCOME_CHART_DAYS, WELCOME_TIME_ZONE } from '@mes/contracts';

const DAY_MS = 86_400_000;
/** Asia/Shanghai keeps UTC+8 all year (no daylight saving), so its midnights are fixed offsets. */
const ZONE_OFFSET_MS = 8 * 3_600_000;

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: WELCOME_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** yyyy-MM-dd of `at` in the product's time zone. */
export const zoneDay = (at: number): string => dayFormat.format(new Date(at));

/** The day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The instant `day` begins in the product's time zone. */
export const dayStart = (day: string): Date => new Date(Date.parse(`${day}T00:00:00Z`) - ZONE_OFFSET_MS);

/** Today, the first day the charts show, and every chart day oldest first. */
export function chartWindow(now: number): { today: string; first: string; days: string[] } {
  const today = zoneDay(now);
  const first = addDays(today, 1 - WELCOME_CHART_DAYS);
  const days = Array.from({ length: WELCOME_CHART_DAYS }, (_, i) => addDays(first, i));
  return { today, first, days };
}

/**
 * Calendar days (`date` fields): `yyyy-MM-dd` text from end to end, never a `Date`, so the day
 * stays the same day whatever the time zone of the browser, the server or the database session.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2026-11-24` as it is when it names a real day (years 0001 to 9999); undefined otherwise. */
export function parseDay(text: string): string | undefined {
  const m = DAY.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1) return undefined;
  // UTC arithmetic has no daylight-saving gaps; setUTCFullYear keeps years below 100 as given.
  const probe = new Date(Date.UTC(2000, mo - 1, d));
  probe.setUTCFullYear(y);
  const real = probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
  return real ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** The day `days` after a valid day (`parseDay`'s form); undefined past the year 9999. */
export function addDays(day: string, days: number): string | undefined {
  const valid = parseDay(day);
  if (!valid) return undefined;
  const [y, mo, d] = valid.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y);
  date.setUTCDate(date.getUTCDate() + days);
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

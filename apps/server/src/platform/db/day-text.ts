const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A calendar day (`date`) as `yyyy-MM-dd` text (columns.ts `calendarDay`). Drizzle's own reads
 * return the text; a raw pool query (named statements, the export thread's cursor) gets pg's
 * local-midnight `Date`, whose local fields are the stored day, so either way the day is the
 * stored one in every time zone.
 */
export const dayText = (value: string | Date): string =>
  typeof value === 'string'
    ? value
    : `${String(value.getFullYear()).padStart(4, '0')}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;

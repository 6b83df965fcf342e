import { and, eq } from 'drizzle-orm';
import type { Db } from './database';
import { param } from './schema';

/**
 * The value of a platform parameter (`account.failCount`, ...), or undefined when absent. Read
 * straight from the database (one lookup on the unique key): parameters are read rarely (sign-in,
 * tenant creation), so a cache would cost more in cross-process invalidation than it saves, and
 * a change is seen at once.
 */
export async function readParam(db: Db, key: string): Promise<string | undefined> {
  const rows = await db
    .select({ value: param.paramValue })
    .from(param)
    .where(and(eq(param.paramKey, key), eq(param.isDeleted, 0)))
    .limit(1);
  return rows[0]?.value;
}

export async function readIntParam(db: Db, key: string, fallback: number): Promise<number> {
  const value = Number.parseInt((await readParam(db, key)) ?? '', 10);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

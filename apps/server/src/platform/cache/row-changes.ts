import { CHANGE_CHANNEL } from './change-feed';

/** The topic a write of a resource publishes; `*` as tenant for resources shared by all tenants. */
export const rowsTopic = (code: string, tenantId: string) => `rows:${code}:${tenantId}`;

/**
 * Where the totals of a list spanning every tenant are kept (the platform's view of users, roles,
 * departments); no tenant id has a `~`.
 */
export const ALL_TENANTS = '~all';

/** Anything that runs a parameterised query: a pool, or the client of an open transaction. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * Announces, inside the caller's transaction, that rows of these resources changed for these
 * tenants — what a write through the resource routes announces (list totals, display names) —
 * for writers outside them (ingestion, the alarm engine, the inactivity sweep). PostgreSQL sends
 * it on commit to every process, this one included.
 */
export async function announceRowChanges(
  db: Queryable,
  changes: Iterable<{ code: string; tenantId: string }>,
): Promise<void> {
  const topics = new Set<string>();
  for (const { code, tenantId } of changes) {
    topics.add(rowsTopic(code, tenantId));
    topics.add(rowsTopic(code, ALL_TENANTS));
  }
  for (const topic of topics) await db.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, topic]);
}

import { and, eq, ne } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { CacheRegistry } from '../platform/cache/cache-registry';
import type { ChangeFeed } from '../platform/cache/change-feed';
import { FeedCache } from '../platform/cache/feed-cache';
import type { Db } from '../platform/db/database';
import { dict, dictBiz, tenant } from '../platform/db/schema';
import { liveRows, tenantRows, type TenantOwnedTable } from '../platform/tenancy/tenant-scope';
import { rowsTopic } from './page-totals';
import type { AnyResourceTable } from './resource-access';

/** A resource whose rows give names: the table, its name column and whether rows are per tenant. */
export interface NamedResource {
  code: string;
  table: AnyResourceTable;
  name: PgColumn;
  perTenant: boolean;
}

type Names = ReadonlyMap<string, string>;

/**
 * The names lists show beside ids (role, department and post names, dictionary labels, tenant
 * names), kept in memory per resource and tenant. A list page then costs one query instead of
 * one per kind of name; writes through the resource routes publish `rows:<code>:<tenant>`, which
 * drops the affected map on every process.
 */
export class NameLookups {
  private readonly cache: FeedCache<Names>;

  constructor(
    private readonly db: Db,
    feed: ChangeFeed,
    caches: CacheRegistry,
  ) {
    // The age limit is a safety net for writes that publish nothing (rows inserted by a migration, say).
    this.cache = new FeedCache('name-lookups', feed, caches, { maxEntries: 2000, maxAgeMs: 5 * 60_000 });
  }

  /** id → name of every live row of the resource in the tenant. */
  names(resource: NamedResource, tenantId: string): Promise<Names> {
    const t = resource.table;
    const owner = resource.perTenant ? tenantId : '*';
    return this.cache.get(rowsTopic(resource.code, owner), resource.name.name, async () => {
      const where = resource.perTenant ? tenantRows(t as TenantOwnedTable, tenantId) : liveRows(t);
      const rows = await this.db.select({ id: t.id, name: resource.name }).from(t).where(where);
      return new Map(rows.map((r) => [String(r.id), String(r.name ?? '')]));
    });
  }

  /** key → label of a system dictionary. */
  dictLabels(code: string): Promise<Names> {
    return this.cache.get(rowsTopic('dict', '*'), `labels:${code}`, async () => {
      const rows = await this.db
        .select({ key: dict.dictKey, value: dict.dictValue })
        .from(dict)
        .where(and(eq(dict.code, code), ne(dict.parentId, '0'), eq(dict.isDeleted, 0)));
      return new Map(rows.map((r) => [r.key, r.value]));
    });
  }

  /** key → label of a business dictionary of one tenant. */
  dictBizLabels(code: string, tenantId: string): Promise<Names> {
    return this.cache.get(rowsTopic('dictbiz', tenantId), `labels:${code}`, async () => {
      const rows = await this.db
        .select({ key: dictBiz.dictKey, value: dictBiz.dictValue })
        .from(dictBiz)
        .where(tenantRows(dictBiz, tenantId, eq(dictBiz.code, code), ne(dictBiz.parentId, '0')));
      return new Map(rows.map((r) => [r.key, r.value]));
    });
  }

  /** tenantId → tenant name. */
  tenantNames(): Promise<Names> {
    return this.cache.get(rowsTopic('tenant', '*'), 'names', async () => {
      const rows = await this.db
        .select({ id: tenant.tenantId, name: tenant.tenantName })
        .from(tenant)
        .where(eq(tenant.isDeleted, 0));
      return new Map(rows.map((r) => [r.id, r.name]));
    });
  }
}

import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { apiScope, dataScope, roleScope } from '../db/schema';
import type { ChangeFeed } from '../cache/change-feed';
import type { CacheRegistry } from '../cache/cache-registry';
import { FeedCache } from '../cache/feed-cache';

export const ScopeCategory = { DATA: 1, API: 2 } as const;
export const GRANTS_TOPIC = 'grants';

export interface ApiGrants {
  codes: ReadonlySet<string>;
  /** `scopePath` patterns of the granted scopes. */
  paths: readonly RegExp[];
}

export interface DataScopeGrant {
  resourceCode: string;
  scopeType: number;
  scopeColumn: string;
  scopeValue: string;
}

/**
 * `/api/blade-system/post/{list,detail}` → a regular expression: `*` is one path segment, `**`
 * any depth, `{a,b}` either word. Everything else matches literally.
 */
export function pathPattern(pattern: string): RegExp | undefined {
  if (!pattern) return undefined;
  const literal = (text: string) => text.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  const segment = (seg: string) =>
    seg === '**'
      ? '.*'
      : seg
          .split(/(\{[^}]*\}|\*)/)
          .map((part) =>
            part === '*'
              ? '[^/]*'
              : part.startsWith('{') && part.endsWith('}')
                ? `(?:${part.slice(1, -1).split(',').map(literal).join('|')})`
                : literal(part),
          )
          .join('');
  return new RegExp(`^${pattern.split('/').map(segment).join('/')}$`);
}

const roleSetKey = (roleIds: readonly string[]) => [...roleIds].sort().join(',');

/**
 * What roles are granted, read from the database and kept per role set until a grant or a
 * scope changes (on any process: the change feed tells them all).
 */
export class GrantService {
  private readonly apiCache: FeedCache<ApiGrants>;
  private readonly dataCache: FeedCache<DataScopeGrant[]>;

  constructor(
    private readonly db: Db,
    feed: ChangeFeed,
    caches: CacheRegistry,
  ) {
    this.apiCache = new FeedCache('api-grants', feed, caches);
    this.dataCache = new FeedCache('data-scope-grants', feed, caches);
  }

  /** Call after changing role grants or scope definitions. */
  changed(): Promise<void> {
    return this.apiCache.changed(GRANTS_TOPIC);
  }

  apiGrants(roleIds: readonly string[]): Promise<ApiGrants> {
    return this.apiCache.get(GRANTS_TOPIC, roleSetKey(roleIds), async () => {
      const rows = roleIds.length
        ? await this.db
            .select({ code: apiScope.resourceCode, path: apiScope.scopePath })
            .from(apiScope)
            .innerJoin(roleScope, eq(roleScope.scopeId, apiScope.id))
            .where(
              and(
                eq(roleScope.scopeCategory, ScopeCategory.API),
                inArray(roleScope.roleId, [...roleIds]),
                eq(apiScope.isDeleted, 0),
              ),
            )
        : [];
      return {
        codes: new Set(rows.map((r) => r.code)),
        paths: rows.map((r) => pathPattern(r.path)).filter((r): r is RegExp => r !== undefined),
      };
    });
  }

  /** Data scopes the roles hold for a resource; empty means no restriction was granted. */
  async dataScopes(roleIds: readonly string[], resourceCode: string): Promise<DataScopeGrant[]> {
    const all = await this.dataCache.get(GRANTS_TOPIC, roleSetKey(roleIds), async () =>
      roleIds.length
        ? this.db
            .select({
              resourceCode: dataScope.resourceCode,
              scopeType: dataScope.scopeType,
              scopeColumn: dataScope.scopeColumn,
              scopeValue: dataScope.scopeValue,
            })
            .from(dataScope)
            .innerJoin(roleScope, eq(roleScope.scopeId, dataScope.id))
            .where(
              and(
                eq(roleScope.scopeCategory, ScopeCategory.DATA),
                inArray(roleScope.roleId, [...roleIds]),
                eq(dataScope.isDeleted, 0),
              ),
            )
        : [],
    );
    return all.filter((g) => g.resourceCode === resourceCode);
  }
}

/** Whether the granted scopes cover a route (by its scope code or by its path). */
export function coversRoute(grants: ApiGrants, code: string | undefined, path: string): boolean {
  if (code && grants.codes.has(code)) return true;
  return grants.paths.some((re) => re.test(path));
}

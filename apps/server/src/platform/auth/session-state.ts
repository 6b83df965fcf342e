import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { UserStatus } from '@mes/contracts';
import type { CacheRegistry } from '../cache/cache-registry';
import type { ChangeFeed } from '../cache/change-feed';
import { FeedCache } from '../cache/feed-cache';
import type { Db } from '../db/database';
import { role, tenant, user } from '../db/schema';
import { tenantScope } from '../tenancy/tenant-scope';
import type { Clock, EphemeralStore } from '../store/ephemeral-store';
import { splitIds } from './request-auth';
import type { SessionClaims, SessionRights } from './claims';

/**
 * Names the password a token was issued under. A new password (changed or reset; argon2 salts
 * every hash, so even the same password gives a new one) gives another stamp, and no token
 * issued before matches it any more.
 */
export function sessionStamp(u: { password: string }): string {
  return createHash('sha256').update(u.password).digest('base64url').slice(0, 22);
}

interface UserState {
  stamp: string;
  /** The session that changed the password and keeps going under the new stamp. */
  carried: { sid: string; stamp: string } | undefined;
  deptId: string;
  roleIds: string[];
}

interface TenantState {
  /** Epoch ms after which the tenant has expired; null: never. */
  expiresAt: number | null;
}

/** A value and when it was read (epoch ms). */
interface Read<V> {
  at: number;
  value: V;
}

interface Facts {
  user: Read<UserState | undefined>;
  tenant: Read<TenantState | undefined>;
  roles: Read<ReadonlyMap<string, string>>;
}

/** The topics the resource engine publishes after writing users, roles and tenants. */
const usersTopic = (tenantId: string) => `rows:user:${tenantId}`;
const rolesTopic = (tenantId: string) => `rows:role:${tenantId}`;
const TENANTS_TOPIC = 'rows:tenant:*';

/**
 * A safety net for writes made outside the server (SQL by hand): their changes reach sessions
 * within this time. Every write through the server drops the entries at once.
 */
const MAX_AGE_MS = 60_000;
const carryKey = (tenantId: string, userId: string) => `session-carry:${tenantId}:${userId}`;

/**
 * Decides on every request whether a session still stands for its account, on every process.
 *
 * The state of each signed-in user (password stamp, status, department, roles) and of each
 * tenant (removed, disabled, expiry) is kept in memory and dropped through the change feed
 * whenever a user, role or tenant is written on any process, so the steady state costs no query.
 * A session is refused while its user is removed or not enabled, or its tenant removed, not
 * enabled or expired; it ends for good when its password stamp no longer matches (password
 * changed or reset). Role and department changes do not end it: the caller's rights are read
 * from the current state.
 *
 * Refresh tokens are checked against the database itself: a refresh is rare, and a process
 * that has not yet heard of a change must not trade an ended session for a new one.
 */
export class SessionStates {
  private readonly users: FeedCache<Read<UserState | undefined>>;
  private readonly tenants: FeedCache<Read<TenantState | undefined>>;
  private readonly roles: FeedCache<Read<ReadonlyMap<string, string>>>;

  constructor(
    private readonly db: Db,
    private readonly store: EphemeralStore,
    private readonly feed: ChangeFeed,
    caches: CacheRegistry,
    private readonly clock: Clock,
  ) {
    const now = () => clock.now();
    this.users = new FeedCache('session-users', feed, caches, { maxEntries: 20_000, maxAgeMs: MAX_AGE_MS, now });
    this.tenants = new FeedCache('session-tenants', feed, caches, { maxEntries: 5000, maxAgeMs: MAX_AGE_MS, now });
    this.roles = new FeedCache('session-roles', feed, caches, { maxEntries: 5000, maxAgeMs: MAX_AGE_MS, now });
  }

  /** The stamp of the user as stored now, for a token about to be issued. */
  async currentStamp(tenantId: string, userId: string): Promise<string | undefined> {
    return (await this.readUser(tenantId, userId)).value?.stamp;
  }

  /** The rights of a session that still stands for its account, else undefined. */
  async rightsOf(claims: SessionClaims, options: { fresh: boolean }): Promise<SessionRights | undefined> {
    if (options.fresh) return this.decide(claims, await this.readFacts(claims)).rights;
    const facts = await this.cachedFacts(claims);
    const decision = this.decide(claims, facts);
    if (decision.complete) return decision.rights;
    // A token issued after the cached facts were read (its notice is still on the way, or the
    // change was written outside the server) is judged on the database instead. Older tokens
    // cannot be newer than the facts, so a refused session costs no query.
    const oldest = Math.min(facts.user.at, facts.tenant.at, facts.roles.at);
    if (claims.iat * 1000 < oldest - 1000) return decision.rights;
    return this.decide(claims, await this.readFacts(claims)).rights;
  }

  /**
   * Keeps the session that changes its own password signed in under the new stamp (as the
   * BladeX family's clients expect); every other session of the user ends. Call before the
   * new password is written, then `usersChanged`.
   */
  async carryOver(claims: SessionClaims, newStamp: string): Promise<void> {
    const ttl = claims.session_exp * 1000 - this.clock.now();
    if (ttl > 0) await this.store.set(carryKey(claims.tenant_id, claims.user_id), `${claims.sid} ${newStamp}`, ttl);
  }

  /** Tells every process that users of the tenant changed, for writes the engine does not make. */
  usersChanged(tenantId: string): Promise<void> {
    return this.feed.publish(usersTopic(tenantId));
  }

  private cachedFacts(claims: SessionClaims): Promise<Facts> {
    const tenantId = claims.tenant_id;
    return this.facts(
      this.users.get(usersTopic(tenantId), claims.user_id, () => this.readUser(tenantId, claims.user_id)),
      this.tenants.get(TENANTS_TOPIC, tenantId, () => this.readTenant(tenantId)),
      this.roles.get(rolesTopic(tenantId), 'aliases', () => this.readRoles(tenantId)),
    );
  }

  private readFacts(claims: SessionClaims): Promise<Facts> {
    const tenantId = claims.tenant_id;
    return this.facts(this.readUser(tenantId, claims.user_id), this.readTenant(tenantId), this.readRoles(tenantId));
  }

  private async facts(
    userRead: Promise<Facts['user']>,
    tenantRead: Promise<Facts['tenant']>,
    rolesRead: Promise<Facts['roles']>,
  ): Promise<Facts> {
    const [u, t, r] = await Promise.all([userRead, tenantRead, rolesRead]);
    return { user: u, tenant: t, roles: r };
  }

  /** `complete`: the session stands and every role the user holds is known. */
  private decide(claims: SessionClaims, facts: Facts): { rights: SessionRights | undefined; complete: boolean } {
    const refused = { rights: undefined, complete: false };
    const state = facts.user.value;
    const tenantState = facts.tenant.value;
    if (!state || !tenantState) return refused;
    if (tenantState.expiresAt !== null && tenantState.expiresAt < this.clock.now()) return refused;
    const carried = state.carried?.sid === claims.sid && state.carried.stamp === state.stamp;
    if (claims.stamp !== state.stamp && !carried) return refused;
    const aliases = facts.roles.value;
    const roleIds = state.roleIds.filter((id) => aliases.has(id));
    // Without a live role the account cannot sign in either.
    if (!roleIds.length) return refused;
    const rights = { deptId: state.deptId, roleIds, roleAliases: roleIds.map((id) => aliases.get(id) as string) };
    return { rights, complete: roleIds.length === state.roleIds.length };
  }

  private async readUser(tenantId: string, userId: string): Promise<Read<UserState | undefined>> {
    const at = this.clock.now();
    const [[row], carriedText] = await Promise.all([
      tenantScope(this.db, tenantId)
        .select(user, { password: user.password, status: user.status, deptId: user.deptId, roleId: user.roleId })
        .where(eq(user.id, userId))
        .limit(1),
      this.store.get(carryKey(tenantId, userId)),
    ]);
    if (!row || row.status !== UserStatus.active) return { at, value: undefined };
    const [sid, stamp] = (carriedText ?? '').split(' ');
    const value = {
      stamp: sessionStamp(row),
      carried: sid && stamp ? { sid, stamp } : undefined,
      deptId: row.deptId,
      roleIds: splitIds(row.roleId),
    };
    return { at, value };
  }

  private async readTenant(tenantId: string): Promise<Read<TenantState | undefined>> {
    const at = this.clock.now();
    const [row] = await tenantScope(this.db, tenantId)
      .select(tenant, { status: tenant.status, expireTime: tenant.expireTime })
      .where()
      .limit(1);
    const live = row && row.status === 1;
    return { at, value: live ? { expiresAt: row.expireTime?.getTime() ?? null } : undefined };
  }

  /** The live roles of the tenant: id → alias. */
  private async readRoles(tenantId: string): Promise<Read<ReadonlyMap<string, string>>> {
    const at = this.clock.now();
    const rows = await tenantScope(this.db, tenantId).select(role, { id: role.id, alias: role.roleAlias }).where();
    return { at, value: new Map(rows.map((r) => [r.id, r.alias])) };
  }
}

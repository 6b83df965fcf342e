import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID } from '@mes/contracts';
import type { Db } from '../platform/db/database';
import { nextId } from '../platform/db/ids';
import * as t from '../platform/db/schema';
import { ScopeCategory } from '../platform/permissions/grants';
import { ROLE_IDS, TENANT_ADMIN_ROLE_ALIAS } from './seed-data';
import type { SeedMenu, SeedSet } from './seed-menus';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const CHUNK = 5000;

async function insertChunked<R>(rows: readonly R[], insert: (chunk: R[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

/** The menus split into generations: roots first, then their children, and so on. */
function generations(menus: readonly SeedMenu[]): SeedMenu[][] {
  const out: SeedMenu[][] = [];
  const placed = new Set(['0']);
  let rest = [...menus];
  while (rest.length) {
    const level = rest.filter((m) => placed.has(m.parentId));
    if (!level.length) throw new Error(`seed: menus without a seeded parent: ${rest.map((m) => m.code).join(', ')}`);
    for (const m of level) placed.add(m.id);
    out.push(level);
    rest = rest.filter((m) => !level.includes(m));
  }
  return out;
}

export interface MenuSyncResult {
  /** Menus this run added, with the parent they were added under. */
  addedMenus: SeedMenu[];
  /** API scopes this run added, with the menu they belong to. */
  addedScopes: { id: string; menuId: string }[];
}

/**
 * Adds the seeded menus, buttons and API scopes that are missing and leaves existing rows as an
 * administrator left them (a removed one stays removed). A seeded code already held by a live
 * menu an administrator made keeps that row, and the seeded children go under it. Returns what
 * was added, which is what a release brings.
 */
export async function syncMenus(tx: Tx, seed: SeedSet): Promise<MenuSyncResult> {
  const addedMenus: SeedMenu[] = [];
  // Seeded id → id of the row that holds the code (the same, unless an administrator's row had it first).
  const held = new Map<string, string>();
  const heldId = (id: string) => held.get(id) ?? id;
  for (const generation of generations(seed.menus)) {
    const rows = generation.map((m) => ({ ...m, parentId: m.parentId === '0' ? '0' : heldId(m.parentId) }));
    const added = new Set(
      (await tx.insert(t.menu).values(rows).onConflictDoNothing().returning({ id: t.menu.id })).map((r) => r.id),
    );
    addedMenus.push(...rows.filter((r) => added.has(r.id)));
    const live = await tx
      .select({ id: t.menu.id, code: t.menu.code })
      .from(t.menu)
      .where(
        and(
          inArray(
            t.menu.code,
            rows.map((r) => r.code),
          ),
          eq(t.menu.isDeleted, 0),
        ),
      );
    const liveByCode = new Map(live.map((r) => [r.code, r.id]));
    for (const r of rows) held.set(r.id, liveByCode.get(r.code) ?? r.id);
  }

  if (seed.menus.length) {
    // Installs seeded before menus had English names get them; a name an administrator gave is kept.
    // One statement rather than one per menu, as this runs on every start.
    const names = sql.join(
      seed.menus.map((m) => sql`(${heldId(m.id)}::bigint, ${m.nameEn})`),
      sql`, `,
    );
    await tx.execute(
      sql`update ${t.menu} set name_en = v.name_en from (values ${names}) as v(id, name_en)
          where ${t.menu.id} = v.id and ${t.menu.nameEn} = ''`,
    );
    // The platform's administrator role is granted every seeded menu.
    await tx
      .insert(t.roleMenu)
      .values(seed.menus.map((m) => ({ id: m.id, menuId: heldId(m.id), roleId: ROLE_IDS.administrator })))
      .onConflictDoNothing();
  }

  const scopes = seed.apiScopes.map((s) => ({ ...s, menuId: heldId(s.menuId) }));
  const addedScopeIds = scopes.length
    ? new Set(
        (await tx.insert(t.apiScope).values(scopes).onConflictDoNothing().returning({ id: t.apiScope.id })).map(
          (r) => r.id,
        ),
      )
    : new Set<string>();
  const addedScopes = scopes.filter((s) => addedScopeIds.has(s.id)).map(({ id, menuId }) => ({ id, menuId }));
  return { addedMenus, addedScopes };
}

/**
 * Grants what a release added to the administrator role of every tenant (the role `admin` that
 * `provisionTenant` creates): a new group to each, a new screen or button to each role that holds
 * its parent, a new API scope to each role that holds its screen. Platform-only screens and their
 * buttons are never granted. A menu an administrator revoked from such a role is not given back,
 * since only rows this run added are granted. Other roles get new menus from an administrator
 * (角色管理 → 权限设置), as ever.
 */
export async function grantToTenantAdministrators(tx: Tx, seed: SeedSet, added: MenuSyncResult): Promise<number> {
  const menus = added.addedMenus.filter((m) => !seed.platformOnly.has(m.id));
  if (!menus.length && !added.addedScopes.length) return 0;
  const roles = (
    await tx
      .select({ id: t.role.id })
      .from(t.role)
      .where(
        and(
          eq(t.role.roleAlias, TENANT_ADMIN_ROLE_ALIAS),
          // tenancy: all tenants (a release's menus reach the administrator of every tenant but the platform)
          ne(t.role.tenantId, DEFAULT_TENANT_ID),
          eq(t.role.isDeleted, 0),
        ),
      )
  ).map((r) => r.id);
  if (!roles.length) return 0;

  // What the roles hold already, of the menus that decide: the new menus' parents, the new scopes' screens.
  const deciding = [...new Set([...menus.map((m) => m.parentId), ...added.addedScopes.map((s) => s.menuId)])].filter(
    (id) => id !== '0',
  );
  const holds = new Map<string, Set<string>>(roles.map((role) => [role, new Set<string>()]));
  if (deciding.length) {
    const rows = await tx
      .select({ roleId: t.roleMenu.roleId, menuId: t.roleMenu.menuId })
      .from(t.roleMenu)
      .where(and(inArray(t.roleMenu.roleId, roles), inArray(t.roleMenu.menuId, deciding)));
    for (const r of rows) holds.get(r.roleId)?.add(r.menuId);
  }

  const menuGrants: { id: string; roleId: string; menuId: string }[] = [];
  // Parents come before their children (syncMenus adds generation by generation).
  for (const menu of menus) {
    for (const role of roles) {
      const roleHolds = holds.get(role);
      if (!roleHolds || (menu.parentId !== '0' && !roleHolds.has(menu.parentId))) continue;
      roleHolds.add(menu.id);
      menuGrants.push({ id: nextId(), roleId: role, menuId: menu.id });
    }
  }
  const scopeGrants = added.addedScopes.flatMap((scope) =>
    roles
      .filter((role) => holds.get(role)?.has(scope.menuId))
      .map((role) => ({ id: nextId(), roleId: role, scopeCategory: ScopeCategory.API, scopeId: scope.id })),
  );
  await insertChunked(menuGrants, (chunk) => tx.insert(t.roleMenu).values(chunk).onConflictDoNothing());
  await insertChunked(scopeGrants, (chunk) => tx.insert(t.roleScope).values(chunk).onConflictDoNothing());
  return menuGrants.length + scopeGrants.length;
}

import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource, postResource, REGISTRY, type RegistryEntry } from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { applyMigrations, connectDatabase, type Database } from '../src/platform/db/database';
import { apiScope, dict, menu, role, roleMenu, roleScope } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { ROLE_IDS } from '../src/seed/seed-data';
import { derivedSeedId, isDerivedSeedId } from '../src/seed/seed-ids';
import { seedDatabase } from '../src/seed-database';
import before from './registry-upgrade.fixture.json';
import { createTestDatabase } from './support/test-database';

/**
 * An install seeded by the release before the registry (ids from list positions, frozen in
 * registry-upgrade.fixture.json as that release wrote them) starts the registry's release, then
 * a later one that adds buttons, scopes and a screen.
 */
let database: Database;
let drop: () => Promise<void>;
let tenantAdminRole: string;
const db = () => database.db;

const byCode = (code: string) => before.menus.find((m) => m.code === code) as (typeof before.menus)[number];

async function codesHeldBy(roleId: string) {
  const menus = await db()
    .select({ code: menu.code })
    .from(roleMenu)
    .innerJoin(menu, eq(menu.id, roleMenu.menuId))
    .where(eq(roleMenu.roleId, roleId));
  const scopes = await db()
    .select({ code: apiScope.resourceCode })
    .from(roleScope)
    .innerJoin(apiScope, eq(apiScope.id, roleScope.scopeId))
    .where(eq(roleScope.roleId, roleId));
  return { menus: new Set(menus.map((m) => m.code)), scopes: new Set(scopes.map((s) => s.code)) };
}

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  database = connectDatabase(created.url, 3);
  await applyMigrations(database);
  // The older release's menus, scopes and dictionaries, and its grants to the platform administrator.
  await db().insert(menu).values(before.menus);
  await db().insert(apiScope).values(before.apiScopes);
  await db().insert(dict).values(before.dicts);
  await db()
    .insert(roleMenu)
    .values(before.menus.map((m) => ({ id: m.id, menuId: m.id, roleId: ROLE_IDS.administrator })));
  // Everything else that release seeded is unchanged since (tenant, clients, roles, users, ...).
  await seedDatabase(db(), 'Admin#12345', { registry: [] });

  // A tenant it provisioned: an `admin` role holding every menu but the platform's, with their scopes.
  tenantAdminRole = nextId();
  await db().insert(role).values({
    id: tenantAdminRole,
    tenantId: '100001',
    parentId: '0',
    roleName: '管理员',
    roleAlias: 'admin',
  });
  const platformOnly = new Set(before.platformOnlyMenuIds);
  const granted = before.menus.filter((m) => !platformOnly.has(m.id));
  await db()
    .insert(roleMenu)
    .values(granted.map((m) => ({ id: nextId(), roleId: tenantAdminRole, menuId: m.id })));
  const grantedIds = new Set(granted.map((m) => m.id));
  await db()
    .insert(roleScope)
    .values(
      before.apiScopes
        .filter((s) => grantedIds.has(s.menuId))
        .map((s) => ({ id: nextId(), roleId: tenantAdminRole, scopeCategory: ScopeCategory.API, scopeId: s.id })),
    );

  // What administrators did meanwhile: renamed a screen, removed a button.
  await db().update(menu).set({ name: '岗位', nameEn: 'Jobs' }).where(eq(menu.code, 'post'));
  await db().update(menu).set({ isDeleted: 1 }).where(eq(menu.code, 'topmenu_setting'));
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

describe('upgrading an install seeded before the registry', () => {
  it('keeps every seeded row with its id, adds only rows with derived ids, and keeps what administrators changed', async () => {
    const grantsBefore = await codesHeldBy(tenantAdminRole);
    await seedDatabase(db(), undefined);
    const menus = await db().select().from(menu);
    // What the registry declared after that release (the failed-jobs monitor, ...) is added
    // beside the old rows, with ids derived from codes; no old row changes id.
    const keptAndAdded = (now: string[], old: string[]) => {
      expect(now).toEqual(expect.arrayContaining(old));
      const added = now.filter((id) => !old.includes(id));
      expect(added.filter((id) => !isDerivedSeedId(id))).toEqual([]);
    };
    keptAndAdded(
      menus.map((m) => m.id),
      before.menus.map((m) => m.id),
    );
    keptAndAdded(
      (await db().select({ id: apiScope.id }).from(apiScope)).map((s) => s.id),
      before.apiScopes.map((s) => s.id),
    );
    keptAndAdded(
      (await db().select({ id: dict.id }).from(dict)).map((d) => d.id),
      before.dicts.map((d) => d.id),
    );
    const post = menus.find((m) => m.code === 'post');
    expect(post).toMatchObject({ id: byCode('post').id, name: '岗位', nameEn: 'Jobs' });
    expect(menus.find((m) => m.code === 'topmenu_setting')?.isDeleted).toBe(1);
    // Nothing held is lost, and what is added is only what this release declared anew (the
    // business group's line screen): a menu of the old release is never granted afresh.
    const after = await codesHeldBy(tenantAdminRole);
    const oldMenus = new Set(before.menus.map((m) => m.code));
    const oldScopes = new Set(before.apiScopes.map((s) => s.resourceCode));
    expect([...after.menus].filter((c) => oldMenus.has(c)).sort()).toEqual([...grantsBefore.menus].sort());
    expect([...after.scopes].filter((c) => oldScopes.has(c)).sort()).toEqual([...grantsBefore.scopes].sort());
    expect([...after.menus].filter((c) => !oldMenus.has(c))).toContain('line');
  });

  it('then adds what a later release declares with derived ids under the old rows, granted to tenant administrators', async () => {
    const postWithPrint = {
      ...postResource,
      menu: {
        ...postResource.menu,
        group: 'system' as const,
        sort: 3,
        icon: 'idcard',
        buttons: [{ action: 'print', name: { zh: '打印', en: 'Print' } }],
        scopes: [{ action: 'print', name: '岗位打印', path: '/api/blade-system/post/print' }],
      },
    };
    const lathe = defineResource({
      code: 'lathe',
      title: { zh: '车床管理', en: 'Lathes' },
      table: 'mes_test_lathe',
      api: '/mes-test/lathe',
      owner: 'tenant',
      menu: { group: 'resource', sort: 9, icon: 'tool' },
      fields: { name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 20 } },
    });
    // An administrator made a menu with the code first, by hand: it stays the one, and the seeded buttons go under it.
    const handMade = nextId();
    await db()
      .insert(menu)
      .values({ id: handMade, parentId: byCode('resource').id, code: 'lathe', name: '车床', path: '/resource/lathe' });
    const release: RegistryEntry[] = [...REGISTRY.filter((e) => e !== postResource), postWithPrint, lathe];
    await seedDatabase(db(), undefined, { registry: release });

    const rows = await db()
      .select()
      .from(menu)
      .where(inArray(menu.code, ['post_print', 'lathe', 'lathe_add', 'lathe_export']));
    const row = (code: string) => rows.find((r) => r.code === code);
    expect(row('post_print')).toMatchObject({ id: derivedSeedId('menu', 'post_print'), parentId: byCode('post').id });
    expect(rows.filter((r) => r.code === 'lathe')).toEqual([expect.objectContaining({ id: handMade, name: '车床' })]);
    expect(row('lathe_add')).toMatchObject({ id: derivedSeedId('menu', 'lathe_add'), parentId: handMade });
    const [printScope] = await db().select().from(apiScope).where(eq(apiScope.resourceCode, 'post:print'));
    expect(printScope).toMatchObject({ id: derivedSeedId('api-scope', 'post:print'), menuId: byCode('post').id });
    const [laterRead] = await db().select().from(apiScope).where(eq(apiScope.resourceCode, 'lathe:read'));
    expect(laterRead?.menuId).toBe(handMade);

    const held = await codesHeldBy(tenantAdminRole);
    expect(held.menus).toContain('post_print');
    expect(held.scopes).toContain('post:print');
    // The hand-made `lathe` menu was not the release's to grant, so neither are the buttons under it.
    expect(held.menus).not.toContain('lathe_add');
    const platform = await codesHeldBy(ROLE_IDS.administrator);
    expect(platform.menus).toContain('lathe_add');
  });
});

import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineResource, defineScreen, REGISTRY, type MenuNode, type RegistryEntry } from '@mes/contracts';
import { buildApp } from '../src/app';
import { tableFor } from '../src/engine/definition-tables';
import { readParam } from '../src/platform/db/params';
import { apiScope, dict, menu, role, roleMenu, roleScope } from '../src/platform/db/schema';
import { ROLE_IDS } from '../src/seed/seed-data';
import { derivedSeedId } from '../src/seed/seed-ids';
import { SEED_MENUS } from '../src/seed/seed-menus';
import { seedDatabase } from '../src/seed-database';
import { createTablesFor } from './support/fixture-tables';
import { basic, createTestApp, md5, type TestApp } from './support/test-app';

/**
 * A plain resource that exists only in this file: its definition is all there is. The test
 * plays a release that adds it to an install that already has a tenant.
 */
const widgetResource = defineResource({
  code: 'widget',
  title: { zh: '部件管理', en: 'Widgets' },
  table: 'mes_test_widget',
  api: '/mes-test/widget',
  owner: 'tenant',
  menu: {
    group: 'resource',
    sort: 10,
    icon: 'tool',
    buttons: [{ action: 'calibrate', name: { zh: '校准', en: 'Calibrate' } }],
    scopes: [{ action: 'calibrate', name: '部件校准', path: '/api/mes-test/widget/calibrate' }],
    dictionaries: [
      {
        code: 'widget_kind',
        name: '部件类型',
        entries: [
          ['1', '量具', 'Gauge'],
          ['2', '夹具', 'Fixture'],
        ],
      },
    ],
  },
  fields: {
    name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 64, required: true, search: true },
    kind: {
      kind: 'int',
      label: { zh: '类型', en: 'Kind' },
      default: 1,
      options: { dict: 'widget_kind' },
      search: true,
    },
  },
  indexes: [{ fields: ['tenantId'] }],
});

/** A screen only the platform uses: never granted to a tenant's administrator. */
const calibrationResource = defineResource({
  code: 'calibration_rule',
  title: { zh: '校准规则', en: 'Calibration rules' },
  table: 'mes_test_calibration_rule',
  api: '/mes-test/calibration-rule',
  owner: 'platform',
  menu: { group: 'tool', sort: 10, icon: 'tool', platformOnly: true },
  fields: { name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 64, required: true } },
});

/** A screen that is not a resource: a menu entry with its own button and scope, no generic routes. */
const wearBoard = defineScreen({
  code: 'wear_board',
  title: { zh: '磨损看板', en: 'Wear board' },
  menu: {
    group: 'report',
    sort: 10,
    icon: 'fund',
    buttons: [{ action: 'print', name: { zh: '打印', en: 'Print' }, position: 1 }],
    scopes: [{ action: 'read', name: '磨损看板查询', path: '/api/mes-test/wear-board/**' }],
  },
});

const NEXT_RELEASE: readonly RegistryEntry[] = [...REGISTRY, widgetResource, calibrationResource, wearBoard];
const WIDGET_MENUS = [
  'widget',
  'widget_add',
  'widget_edit',
  'widget_delete',
  'widget_view',
  'widget_export',
  'widget_calibrate',
];
const WIDGET_SCOPES = ['widget:read', 'widget:write', 'widget:calibrate'];

let t: TestApp;
let next: FastifyInstance;
let platformAdmin: string;
let tenantAdminRole: string;
let tenantPassword: string;

const call = (app: FastifyInstance, token: string, options: InjectOptions) =>
  app.inject({ ...options, headers: { ...options.headers, 'blade-auth': `bearer ${token}` } });

async function heldBy(roleId: string) {
  const menus = await t.ctx.db
    .select({ code: menu.code })
    .from(roleMenu)
    .innerJoin(menu, eq(menu.id, roleMenu.menuId))
    .where(eq(roleMenu.roleId, roleId));
  const scopes = await t.ctx.db
    .select({ code: apiScope.resourceCode })
    .from(roleScope)
    .innerJoin(apiScope, eq(apiScope.id, roleScope.scopeId))
    .where(eq(roleScope.roleId, roleId));
  return { menus: new Set(menus.map((m) => m.code)), scopes: new Set(scopes.map((s) => s.code)) };
}

beforeAll(async () => {
  // This release: the registry as it is.
  t = await createTestApp();
  platformAdmin = (await t.signIn()).access_token;
  const created = await t.as(platformAdmin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: '100001', tenantName: '华东口腔连锁', linkman: '张三' },
  });
  expect(created.json()).toMatchObject({ success: true });
  tenantPassword = (await readParam(t.ctx.db, 'tenant.default.password')) as string;
  const [found] = await t.ctx.db
    .select({ id: role.id })
    .from(role)
    .where(and(eq(role.tenantId, '100001'), eq(role.roleAlias, 'admin')));
  tenantAdminRole = found?.id as string;

  // The next release adds two definitions: its migration creates their tables, then it starts.
  await createTablesFor(t.databaseUrl, {
    widget: tableFor(widgetResource),
    calibration: tableFor(calibrationResource),
  });
  await seedDatabase(t.ctx.db, undefined, { registry: NEXT_RELEASE });
  next = await buildApp(t.ctx, { registry: NEXT_RELEASE });
  await next.ready();
});
afterAll(async () => {
  await next?.close();
  await t.close();
});

describe('a resource defined only by its definition', () => {
  it('has routes in the release that lists it, and none before', async () => {
    const url = '/api/mes-test/widget/list';
    expect((await call(t.app, platformAdmin, { method: 'GET', url })).statusCode).toBe(404);
    const res = await call(next, platformAdmin, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ records: [], total: 0 });
  });

  it('gets a menu in its group, its buttons and its API scopes, with ids derived from the codes', async () => {
    const rows = await t.ctx.db.select().from(menu).where(inArray(menu.code, WIDGET_MENUS));
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect([...byCode.keys()].sort()).toEqual([...WIDGET_MENUS].sort());
    for (const row of rows) expect(row.id, row.code).toBe(derivedSeedId('menu', row.code));
    const group = SEED_MENUS.find((m) => m.code === 'resource');
    expect(byCode.get('widget')).toMatchObject({
      parentId: group?.id,
      name: '部件管理',
      nameEn: 'Widgets',
      path: '/resource/widget',
      source: 'tool',
      sort: 10,
      category: 1,
    });
    expect(byCode.get('widget_calibrate')).toMatchObject({
      parentId: byCode.get('widget')?.id,
      name: '校准',
      nameEn: 'Calibrate',
      alias: 'calibrate',
      category: 2,
    });
    const scopes = await t.ctx.db.select().from(apiScope).where(inArray(apiScope.resourceCode, WIDGET_SCOPES));
    expect(scopes.map((s) => [s.resourceCode, s.menuId, s.scopePath]).sort()).toEqual(
      [
        ['widget:calibrate', byCode.get('widget')?.id, '/api/mes-test/widget/calibrate'],
        ['widget:read', byCode.get('widget')?.id, '/api/mes-test/widget/{list,page,detail,tree,export}'],
        ['widget:write', byCode.get('widget')?.id, '/api/mes-test/widget/{submit,remove}'],
      ].sort(),
    );
  });

  it('lets a screen that is not a resource declare its menu, button and scope, and nothing generic', async () => {
    const rows = await t.ctx.db
      .select()
      .from(menu)
      .where(inArray(menu.code, ['wear_board', 'wear_board_print', 'wear_board_add']));
    expect(rows.map((r) => [r.code, r.id, r.path]).sort()).toEqual([
      ['wear_board', derivedSeedId('menu', 'wear_board'), '/report/wear_board'],
      ['wear_board_print', derivedSeedId('menu', 'wear_board_print'), '/report/wear_board'],
    ]);
    const scopes = await t.ctx.db
      .select()
      .from(apiScope)
      .where(eq(apiScope.menuId, derivedSeedId('menu', 'wear_board')));
    expect(scopes.map((s) => s.resourceCode)).toEqual(['wear_board:read']);
    const held = await heldBy(tenantAdminRole);
    expect(held.menus).toContain('wear_board_print');
    expect(held.scopes).toContain('wear_board:read');
  });

  it('seeds the system dictionary it declares', async () => {
    const entries = (
      await call(next, platformAdmin, { method: 'GET', url: '/api/blade-system/dict/dictionary?code=widget_kind' })
    ).json().data as { id: string; dictKey: string; dictValue: string }[];
    expect(entries.map((e) => [e.id, e.dictKey, e.dictValue])).toEqual([
      [derivedSeedId('dict', 'widget_kind', '1'), '1', '量具'],
      [derivedSeedId('dict', 'widget_kind', '2'), '2', '夹具'],
    ]);
  });

  it('reaches the administrator of a tenant that existed before the release, platform screens excepted', async () => {
    const held = await heldBy(tenantAdminRole);
    for (const code of WIDGET_MENUS) expect(held.menus, code).toContain(code);
    for (const code of WIDGET_SCOPES) expect(held.scopes, code).toContain(code);
    expect(held.menus).not.toContain('calibration_rule');
    expect(held.menus).not.toContain('calibration_rule_add');
    const platform = await heldBy(ROLE_IDS.administrator);
    expect(platform.menus).toContain('calibration_rule');
    expect(platform.menus).toContain('widget_calibrate');
  });

  it('is a screen and a working resource for that administrator, within the tenant', async () => {
    const signIn = await next.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(),
        'tenant-id': '100001',
      },
      payload: new URLSearchParams({
        tenantId: '100001',
        username: 'admin',
        password: md5(tenantPassword),
        grant_type: 'password',
        scope: 'all',
      }).toString(),
    });
    expect(signIn.statusCode).toBe(200);
    const token = signIn.json().access_token as string;

    const routes = (await call(next, token, { method: 'GET', url: '/api/blade-system/menu/routes' })).json()
      .data as MenuNode[];
    const resources = routes.find((n) => n.code === 'resource');
    expect(resources?.children?.map((n) => n.code)).toContain('widget');
    const buttons = JSON.stringify(
      (await call(next, token, { method: 'GET', url: '/api/blade-system/menu/buttons' })).json().data,
    );
    expect(buttons).toContain('"widget_calibrate"');

    const saved = await call(next, token, {
      method: 'POST',
      url: '/api/mes-test/widget/submit',
      payload: { name: '游标卡尺', kind: 1 },
    });
    expect(saved.json()).toMatchObject({ success: true });
    const page = (await call(next, token, { method: 'GET', url: '/api/mes-test/widget/list' })).json().data;
    expect(page.records).toEqual([expect.objectContaining({ name: '游标卡尺', kind: 1, kindName: '量具' })]);
    // The platform's own list does not show another tenant's rows.
    const platformPage = (await call(next, platformAdmin, { method: 'GET', url: '/api/mes-test/widget/list' })).json()
      .data;
    expect(platformPage.total).toBe(0);
    // The platform-only screen's routes refuse a tenant.
    expect((await call(next, token, { method: 'GET', url: '/api/mes-test/calibration-rule/list' })).statusCode).toBe(
      403,
    );
  });

  it('adds nothing when started again, and does not give back a button an administrator revoked', async () => {
    const [calibrate] = await t.ctx.db.select({ id: menu.id }).from(menu).where(eq(menu.code, 'widget_calibrate'));
    await t.ctx.db
      .delete(roleMenu)
      .where(and(eq(roleMenu.roleId, tenantAdminRole), eq(roleMenu.menuId, calibrate?.id as string)));
    const count = async () => ({
      menus: (await t.ctx.db.select({ id: menu.id }).from(menu)).length,
      scopes: (await t.ctx.db.select({ id: apiScope.id }).from(apiScope)).length,
      dicts: (await t.ctx.db.select({ id: dict.id }).from(dict)).length,
      grants: (await t.ctx.db.select({ id: roleMenu.id }).from(roleMenu)).length,
    });
    const before = await count();
    await seedDatabase(t.ctx.db, undefined, { registry: NEXT_RELEASE });
    await seedDatabase(t.ctx.db, undefined, { registry: NEXT_RELEASE });
    expect(await count()).toEqual(before);
    expect((await heldBy(tenantAdminRole)).menus).not.toContain('widget_calibrate');
  });
});

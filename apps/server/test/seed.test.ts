import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/platform/db/schema';
import { applyMigrations, connectDatabase } from '../src/platform/db/database';
import { seedDatabase } from '../src/seed-database';
import { SEED_MENUS } from '../src/seed/seed-data';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tables = [
  schema.tenant,
  schema.oauthClient,
  schema.user,
  schema.role,
  schema.dept,
  schema.post,
  schema.param,
  schema.dict,
  schema.menu,
  schema.roleMenu,
] as const;

async function counts() {
  return Promise.all(tables.map(async (table) => (await t.ctx.db.select({ n: count() }).from(table))[0]?.n));
}

describe('seed', () => {
  it('is idempotent: a second and third run add nothing and keep the admin password', async () => {
    const before = await counts();
    const again = await seedDatabase(t.ctx.db, 'a-different-password');
    await seedDatabase(t.ctx.db, undefined);
    expect(again).toEqual({ createdAdmin: false, generatedAdminPassword: undefined });
    expect(await counts()).toEqual(before);
    expect((await t.signIn('admin', ADMIN_PASSWORD)).account).toBe('admin');
  });

  it('keeps what an administrator changed', async () => {
    await t.ctx.db.update(schema.param).set({ paramValue: '7' }).where(undefined);
    await seedDatabase(t.ctx.db, undefined);
    const values = await t.ctx.db.select({ v: schema.param.paramValue }).from(schema.param);
    expect(values.every((r) => r.v === '7')).toBe(true);
  });

  it('gives built-in menus of an older install their English names, keeping ones an administrator set', async () => {
    const [user, post] = ['user', 'post'].map((code) => SEED_MENUS.find((m) => m.code === code && m.category === 1));
    await t.ctx.db.update(schema.menu).set({ nameEn: '' });
    await t.ctx.db
      .update(schema.menu)
      .set({ nameEn: 'Staff' })
      .where(eq(schema.menu.id, String(user?.id)));
    await seedDatabase(t.ctx.db, undefined);
    const rows = await t.ctx.db.select({ id: schema.menu.id, nameEn: schema.menu.nameEn }).from(schema.menu);
    const byId = new Map(rows.map((r) => [r.id, r.nameEn]));
    expect(byId.get(String(user?.id))).toBe('Staff');
    expect(byId.get(String(post?.id))).toBe('Posts');
    for (const m of SEED_MENUS) if (m.id !== user?.id) expect(byId.get(m.id), m.code).toBe(m.nameEn);
  });

  it('seeds once when two processes start together on an empty database', async () => {
    const { url, drop } = await createTestDatabase();
    const first = connectDatabase(url, 2);
    const second = connectDatabase(url, 2);
    try {
      await applyMigrations(first);
      const results = await Promise.all([
        seedDatabase(first.db, 'x'.repeat(12)),
        seedDatabase(second.db, 'x'.repeat(12)),
      ]);
      expect(results.map((r) => r.createdAdmin).sort()).toEqual([false, true]);
      const [menus] = await first.db.select({ n: count() }).from(schema.menu);
      expect(menus?.n).toBe(SEED_MENUS.length);
    } finally {
      await first.close();
      await second.close();
      await drop();
    }
  });

  it('generates an admin password when none is configured, and only once', async () => {
    const { url, drop } = await createTestDatabase();
    const database = connectDatabase(url, 2);
    try {
      await applyMigrations(database);
      const result = await seedDatabase(database.db, undefined);
      expect(result.createdAdmin).toBe(true);
      expect(result.generatedAdminPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
      const other = await seedDatabase(database.db, undefined);
      expect(other.generatedAdminPassword).toBeUndefined();
    } finally {
      await database.close();
      await drop();
    }
  });
});

describe('seeded data', () => {
  it('has the platform tenant, the two clients and the role tree', async () => {
    const [tenant] = await t.ctx.db.select().from(schema.tenant);
    expect(tenant).toMatchObject({ tenantId: '000000', tenantName: '管理组' });
    const clients = await t.ctx.db.select().from(schema.oauthClient);
    expect(clients.map((c) => [c.clientId, c.accessTokenValidity, c.refreshTokenValidity]).sort()).toEqual([
      ['saber', 3600, 604800],
      ['sword', 3600, 604800],
    ]);
    expect(clients.every((c) => c.clientSecret.startsWith('sha256:'))).toBe(true);
    const roles = await t.ctx.db.select().from(schema.role);
    const byAlias = new Map(roles.map((r) => [r.roleAlias, r]));
    expect([...byAlias.keys()].sort()).toEqual(['administrator', 'boss', 'hr', 'manager', 'user']);
    for (const child of ['hr', 'manager', 'boss']) expect(byAlias.get(child)?.parentId).toBe(byAlias.get('user')?.id);
  });

  it('has a company with two branches and the eight posts', async () => {
    const depts = await t.ctx.db.select().from(schema.dept);
    const root = depts.find((d) => d.parentId === '0');
    expect(depts.filter((d) => d.parentId === root?.id)).toHaveLength(2);
    const posts = await t.ctx.db.select().from(schema.post);
    expect(posts.map((p) => p.postCode).sort()).toEqual(['ceo', 'cfo', 'cio', 'coo', 'cto', 'hrm', 'pm', 'staff']);
  });

  it('has the system dictionaries of the contract', async () => {
    const parents = await t.ctx.db.select().from(schema.dict);
    const codes = new Set(parents.map((d) => d.code));
    for (const code of [
      'sex',
      'notice',
      'menu_category',
      'button_func',
      'yes_no',
      'flow',
      'org_category',
      'data_scope_type',
      'api_scope_type',
      'post_category',
      'oss',
      'sms',
      'region',
      'user_type',
    ]) {
      expect(codes, code).toContain(code);
    }
  });

  it('generates tenant.default.password instead of shipping a fixed one', async () => {
    const { url, drop } = await createTestDatabase();
    const database = connectDatabase(url, 2);
    try {
      await applyMigrations(database);
      await seedDatabase(database.db, 'x'.repeat(12));
      const rows = await database.db.select().from(schema.param);
      const byKey = new Map(rows.map((r) => [r.paramKey, r.paramValue]));
      expect(byKey.get('account.failCount')).toBe('5');
      expect(byKey.get('account.initPassword')).toBe('123456');
      expect(byKey.get('account.registerUser')).toBe('false');
      expect(byKey.get('datasource.allowedPorts')).toBe('5432-5439');
      expect(byKey.get('tenant.default.accountNumber')).toBe('100');
      expect(byKey.get('tenant.default.password')).toMatch(/^[A-Za-z0-9_-]{12}$/);
    } finally {
      await database.close();
      await drop();
    }
  });
});

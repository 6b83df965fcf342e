import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { applyMigrations, connectDatabase, type Database } from '../src/platform/db/database';
import { dept, deptLine, user } from '../src/platform/db/schema';
import { tenantScope } from '../src/platform/tenancy/tenant-scope';
import { createTestDatabase } from './support/test-database';

/**
 * The tenancy primitive on a real database: whatever ids a caller passes, a query built through
 * tenant A's scope reads, changes and removes only tenant A's rows.
 */
let database: Database;
let drop: () => Promise<void>;

const A = 'tenantA';
const B = 'tenantB';
const person = (id: string, tenantId: string, account: string) => ({
  id,
  tenantId,
  account,
  password: 'x',
  name: account,
  realName: account,
});

beforeAll(async () => {
  const created = await createTestDatabase();
  drop = created.drop;
  database = connectDatabase(created.url, 2);
  await applyMigrations(database);
});
afterAll(async () => {
  await database.close();
  await drop();
});

/** Every user row of both tenants, as stored. */
const stored = () =>
  database.db
    .select({ id: user.id, tenantId: user.tenantId, realName: user.realName, isDeleted: user.isDeleted })
    .from(user)
    .where(inArray(user.tenantId, [A, B]))
    .orderBy(user.id);

describe('tenantScope', () => {
  beforeAll(async () => {
    await database.db
      .insert(user)
      .values([person('71', A, 'a1'), person('72', A, 'a2'), person('81', B, 'b1'), person('82', B, 'b2')]);
  });

  it('an update given another tenant’s ids changes none of that tenant’s rows', async () => {
    const changed = await tenantScope(database.db, A)
      .update(user)
      .set({ realName: 'changed' })
      .where(inArray(user.id, ['71', '81', '82']))
      .returning({ id: user.id });
    expect(changed.map((r) => r.id)).toEqual(['71']);
    expect((await stored()).map((r) => [r.id, r.realName])).toEqual([
      ['71', 'changed'],
      ['72', 'a2'],
      ['81', 'b1'],
      ['82', 'b2'],
    ]);
  });

  it('an update without conditions reaches every row of its tenant and no other', async () => {
    await database.db.transaction(async (tx) => {
      await tenantScope(tx, B).update(user).set({ realName: 'all of B' }).where();
    });
    expect((await stored()).map((r) => r.realName)).toEqual(['changed', 'a2', 'all of B', 'all of B']);
  });

  it('a select-for-update then update by id inside a transaction stays in its tenant', async () => {
    await database.db.transaction(async (tx) => {
      const scope = tenantScope(tx, A);
      const locked = await scope
        .select(user, { id: user.id })
        .where(inArray(user.id, ['72', '81']))
        .for('update');
      expect(locked).toEqual([{ id: '72' }]);
      // The id of B's row passed on regardless: still nothing of B's changes.
      await scope
        .update(user)
        .set({ isDeleted: 1 })
        .where(inArray(user.id, ['72', '81']));
    });
    const rows = await stored();
    expect(rows.filter((r) => r.isDeleted === 1).map((r) => r.id)).toEqual(['72']);
  });

  it('reads see only live rows of the tenant', async () => {
    const seen = await tenantScope(database.db, A).select(user, { id: user.id }).where();
    expect(seen).toEqual([{ id: '71' }]);
    const other = await tenantScope(database.db, A).select(user).where(eq(user.id, '81'));
    expect(other).toEqual([]);
  });

  it('a delete given another tenant’s ids removes none of that tenant’s rows', async () => {
    await database.db.insert(deptLine).values([
      { id: '91', tenantId: A, lineId: '1', deptId: '5', direction: 1, sort: 1 },
      { id: '92', tenantId: B, lineId: '1', deptId: '5', direction: 1, sort: 1 },
    ]);
    const removed = await tenantScope(database.db, B)
      .delete(deptLine)
      .where(inArray(deptLine.id, ['91', '92']))
      .returning({ id: deptLine.id });
    expect(removed).toEqual([{ id: '92' }]);
    const left = await database.db.select({ id: deptLine.id }).from(deptLine);
    expect(left).toEqual([{ id: '91' }]);
  });

  it('an insert stores the rows in the scope’s tenant', async () => {
    await tenantScope(database.db, B)
      .insert(dept)
      .values({ id: '61', parentId: '0', ancestors: '0', deptName: 'B 部门', fullName: 'B 部门' });
    const [row] = await database.db.select({ tenantId: dept.tenantId }).from(dept).where(eq(dept.id, '61'));
    expect(row?.tenantId).toBe(B);
  });

  it('refuses to move a row to another tenant, and stores nothing', async () => {
    const smuggled = { realName: 'moved', tenantId: B } as unknown as { realName: string };
    expect(() => tenantScope(database.db, A).update(user).set(smuggled)).toThrow(/never changes tenant/);
    const row = { id: '62', deptName: 'x', fullName: 'x', tenantId: A } as unknown as { id: string; deptName: string };
    expect(() => tenantScope(database.db, B).insert(dept).values(row)).toThrow(/never changes tenant/);
    const moved = await database.db.select({ id: user.id }).from(user).where(eq(user.realName, 'moved'));
    expect(moved).toEqual([]);
    expect(await database.db.select({ id: dept.id }).from(dept).where(eq(dept.id, '62'))).toEqual([]);
  });

  it('refuses a scope without a tenant', () => {
    expect(() => tenantScope(database.db, '')).toThrow(/no tenant/);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { is } from 'drizzle-orm';
import { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../db/schema';
import { findRawTenantWrites, findTenantConditions } from './condition-scan';

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * Where tenant conditions are written by design: this folder, the primitive (tenant-scope.ts,
 * raw-tenant-rows.ts) and this scanner with its test, whose examples are conditions.
 */
const tenancyDir = path.dirname(fileURLToPath(import.meta.url));

/**
 * Export names of the tables whose rows belong to a tenant. `tenant` (blade_tenant) is left out:
 * its `tenant_id` is the row's own key, and the platform administers every tenant's record.
 */
const tenantOwnedTables = Object.entries(schema)
  .filter(([name, table]) => name !== 'tenant' && is(table, PgTable))
  .filter(([, table]) => is((table as unknown as Record<string, unknown>).tenantId, PgColumn))
  .map(([name]) => name);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the tenant condition scanner', () => {
  it('finds a drizzle operator on a tenantId column, on one line or across lines', () => {
    const source = [
      'const a = and(eq(user.tenantId, auth.tenantId), eq(user.id, id));',
      'const b = and(',
      '  eq(',
      '    dept.tenantId,',
      '    tenantId,',
      '  ),',
      ');',
      'const c = inArray(role.tenantId, ids);',
      'const d = eq(auth.tenantId, user.tenantId);',
    ].join('\n');
    expect(findTenantConditions(source).map((h) => h.line)).toEqual([1, 3, 8, 9]);
  });

  it('finds a tenantId column or tenant_id compared in SQL text', () => {
    const source = [
      'sql`where ${dept.tenantId} = ${tenantId}`;',
      'sql`where ${tenantId} = ${dept.tenantId}`;',
      "client.query('select 1 from blade_user where tenant_id = $1', [t]);",
      'sql`tenant_id in (select ...)`;',
    ].join('\n');
    expect(findTenantConditions(source).map((h) => h.line)).toEqual([1, 2, 3, 4]);
  });

  it('leaves JavaScript comparisons, inserted values and the scoped helper alone', () => {
    const source = [
      'if (record.tenantId !== auth.tenantId) throw forbidden();',
      "if (claims.tenant_id === 'x') return;",
      'await scope.insert(user).values({ id, account });',
      'row.tenantId = auth.tenantId;',
      'const t = tenantScope(tx, auth.tenantId).select(user).where(eq(user.id, id));',
      'orderBy(asc(tenant.tenantId));',
      '// tenancy: all tenants (a release reaches every tenant but the platform)',
      "ne(role.tenantId, '000000'),",
    ].join('\n');
    expect(findTenantConditions(source)).toEqual([]);
  });
});

describe('the raw tenant write scanner', () => {
  it('finds an update or delete of a tenant-owned table on the database or a transaction', () => {
    const source = [
      'await tx.update(user).set({ a }).where(eq(user.id, id));',
      'await ctx.db',
      '  .delete(deptLine)',
      '  .where(eq(deptLine.id, id));',
      'await this.ctx.db.update(role).set({});',
    ].join('\n');
    expect(findRawTenantWrites(source, ['user', 'deptLine', 'role']).map((h) => h.line)).toEqual([1, 2, 5]);
  });

  it('leaves writes through the scope and writes of other tables alone', () => {
    const source = [
      'await tenantScope(tx, auth.tenantId).update(user).set({ a }).where(eq(user.id, id));',
      'await scope.delete(deptLine).where();',
      'await tx.delete(roleMenu).where(inArray(roleMenu.roleId, ids));',
      'await tx.update(users).set({});',
      '// tenancy: all tenants (retention drops old rows of every tenant)',
      'await tx.delete(deptLine).where(lt(deptLine.id, cutoff));',
    ].join('\n');
    expect(findRawTenantWrites(source, ['user', 'deptLine'])).toEqual([]);
  });
});

/** Every server source file but the tenancy folder's own (see `tenancyDir`). */
const serverFiles = () => sourceFiles(srcDir).filter((file) => !file.startsWith(`${tenancyDir}${path.sep}`));

describe('server code (src/, the engine and the platform as well as the modules)', () => {
  it('writes no tenant condition of its own (platform/tenancy applies them)', () => {
    const files = serverFiles();
    expect(files.length).toBeGreaterThan(300);
    expect(files.some((file) => file.includes(`${path.sep}engine${path.sep}`))).toBe(true);
    const found = files.flatMap((file) =>
      findTenantConditions(fs.readFileSync(file, 'utf8')).map(
        (hit) => `${path.relative(process.cwd(), file)}:${hit.line}: ${hit.text}`,
      ),
    );
    expect(found, `use tenantScope / tenantRows from platform/tenancy instead:\n${found.join('\n')}`).toEqual([]);
  });

  it('updates and deletes tenant-owned tables only through tenantScope', () => {
    expect(tenantOwnedTables).toEqual(expect.arrayContaining(['user', 'dept', 'role', 'deptLine', 'userOauth']));
    const found = serverFiles().flatMap((file) =>
      findRawTenantWrites(fs.readFileSync(file, 'utf8'), tenantOwnedTables).map(
        (hit) => `${path.relative(process.cwd(), file)}:${hit.line}: ${hit.text}`,
      ),
    );
    expect(found, `write through tenantScope(tx, tenantId) instead:\n${found.join('\n')}`).toEqual([]);
  });
});

import { and, eq, inArray, sql } from 'drizzle-orm';
import { BUILT_IN_REPORTS } from '@mes/contracts';
import type { Db } from '../../platform/db/database';
import { nextId } from '../../platform/db/ids';
import { reportTemplate, tenant } from '../../platform/db/schema';
import { tenantScope } from '../../platform/tenancy/tenant-scope';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Queryable = Db | Tx;

/**
 * Gives a tenant the built-in report templates it lacks (by code). A built-in a tenant's
 * administrator removed comes back: they are the regulatory reports every tenant must be able to
 * print; what a tenant changes (layout, name) is kept.
 */
export async function ensureBuiltInReports(db: Queryable, tenantId: string): Promise<number> {
  const scope = tenantScope(db, tenantId);
  const have = await scope.select(reportTemplate, { code: reportTemplate.code }).where(
    inArray(
      reportTemplate.code,
      BUILT_IN_REPORTS.map((r) => r.code),
    ),
  );
  const held = new Set(have.map((r) => r.code));
  for (const r of BUILT_IN_REPORTS) {
    if (!r.before || !held.has(r.code)) continue;
    // A copy still as an earlier release seeded it takes the current shape; the tenant's own
    // changes (another period or grouping) keep it as it is.
    await scope
      .update(reportTemplate)
      .set({ period: r.period, groupBy: r.groupBy, measures: r.measures, columns: r.columns, remark: r.remark })
      .where(
        and(
          eq(reportTemplate.code, r.code),
          eq(reportTemplate.builtIn, true),
          eq(reportTemplate.period, r.before.period),
          sql`coalesce(${reportTemplate.groupBy}, '[]'::jsonb) = ${JSON.stringify(r.before.groupBy)}::jsonb`,
        ),
      );
  }
  const missing = BUILT_IN_REPORTS.filter((r) => !held.has(r.code));
  if (!missing.length) return 0;
  await scope.insert(reportTemplate).values(
    ...missing.map((r) => ({
      id: nextId(),
      code: r.code,
      name: r.name,
      source: r.source,
      dateField: r.dateField,
      period: r.period,
      groupBy: r.groupBy,
      measures: r.measures,
      columns: r.columns,
      filters: {},
      builtIn: true,
      remark: r.remark,
    })),
  );
  return missing.length;
}

/** Every live tenant's built-ins (at start: tenants made before a built-in existed get it). */
export async function ensureBuiltInReportsForAll(db: Queryable): Promise<void> {
  const tenants = await db.select({ id: tenant.tenantId }).from(tenant).where(eq(tenant.isDeleted, 0));
  for (const t of tenants) await ensureBuiltInReports(db, t.id);
}

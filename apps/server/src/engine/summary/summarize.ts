import { and, asc, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthContext } from '../../platform/auth/request-auth';
import type { ReferenceJoin } from '../display-names';
import type { ResourceService } from '../kernel/resource-service';
import type { Row } from '../resource-hooks';
import {
  measureExpression,
  PERIOD_KEY,
  periodExpression,
  rangeCondition,
  summaryColumn,
  type SummarySpec,
} from './summary';

/** The query of a report's rows when nothing groups them, kept unrun: its SQL may be read in a thread of its own. */
export interface DetailQuery {
  query: ReturnType<ResourceService['selectRows']>;
}

/** The rows `summarize` reads when nothing groups them (at most `limit`), as a query not yet run. */
export async function detailQuery(
  service: ResourceService,
  query: Record<string, unknown>,
  auth: AuthContext,
  spec: SummarySpec,
): Promise<DetailQuery> {
  const { parsed, where } = await service.listWhere(query, auth, 'own');
  const rangeColumn = spec.range && summaryColumn(service.def, service.columns, spec.range.field, 'date');
  const scope = and(where, rangeColumn ? rangeCondition(rangeColumn, spec.range) : undefined);
  // Wrapped: a drizzle query is a thenable, which `await` (or an async function's return) would run.
  return {
    query: service
      .selectRows(auth)
      .where(scope)
      .orderBy(...parsed.orderBy, asc(service.table.id))
      .limit(spec.limit),
  };
}

/**
 * The caller's own tenant's rows the list would read (its filters and data scope), within a
 * range of a date field, either as rows (no grouping; at most `limit`) or grouped by a time
 * bucket and fields with measures, plus the measures over every matching row (`totals`).
 * Group fields that are references carry their label (`<field>Name`), dictionary fields theirs.
 */
export async function summarize(
  service: ResourceService,
  query: Record<string, unknown>,
  auth: AuthContext,
  spec: SummarySpec,
): Promise<{ rows: Row[]; totals: Row | undefined }> {
  if (!spec.period && !spec.groupBy.length) {
    const rows = await (await detailQuery(service, query, auth, spec)).query;
    return { rows: await service.decorate(rows, auth), totals: undefined };
  }
  const { where } = await service.listWhere(query, auth, 'own');
  const columns = service.columns;
  const rangeColumn = spec.range && summaryColumn(service.def, columns, spec.range.field, 'date');
  const scope = and(where, rangeColumn ? rangeCondition(rangeColumn, spec.range) : undefined);
  const measures = Object.fromEntries(
    spec.measures.map((m) => [m.key, measureExpression(service.def, columns, m)] as const),
  );
  const keys: Record<string, SQL | PgColumn> = {};
  if (spec.period)
    keys[PERIOD_KEY] = periodExpression(
      summaryColumn(service.def, columns, spec.period.field, 'date'),
      spec.period.unit,
    );
  const joins: ReferenceJoin[] = [];
  for (const name of spec.groupBy) {
    keys[name] = summaryColumn(service.def, columns, name, 'group');
    const ref = service.references.find((r) => r.field === name);
    if (ref) {
      keys[ref.nameKey] = ref.label;
      joins.push(ref);
    }
  }
  let grouped = service.ctx.db
    .select({ ...keys, ...measures })
    .from(service.table)
    .$dynamic();
  for (const ref of joins) grouped = grouped.leftJoin(ref.rows, ref.on(auth));
  const order = Object.values(keys);
  const [rows, totalRows] = await Promise.all([
    grouped
      .where(scope)
      .groupBy(...order)
      .orderBy(...order)
      .limit(spec.limit),
    Object.keys(measures).length
      ? service.ctx.db.select(measures).from(service.table).where(scope)
      : Promise.resolve([] as Row[]),
  ]);
  // Dictionary labels are per tenant for business dictionaries: the rows are the caller's tenant's.
  const named = await service.names.add(rows.map((r) => ({ ...r, tenantId: auth.tenantId }) as Row));
  for (const row of named) delete row.tenantId;
  return { rows: named, totals: totalRows[0] as Row | undefined };
}

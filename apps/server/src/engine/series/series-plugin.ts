import type { AuthContext } from '../../platform/auth/request-auth';
import type { ResourcePlugin } from '../kernel/plugin';
import type { ResourceService } from '../kernel/resource-service';
import { ALL_TENANTS } from '../page-totals';
import { readsAllTenants } from '../resource-access';
import { seriesPage, type SeriesSource } from './series-page';

/** What a series page reads through: the service's scope, selection and totals key for this caller. */
export function seriesSourceOf(
  service: ResourceService,
  query: Record<string, unknown>,
  auth: AuthContext,
): SeriesSource {
  const { ctx, def, table } = service;
  return {
    ctx,
    def,
    table,
    selection: service.selection,
    selectRows: () => service.selectRows(auth),
    listWhere: (q) => service.listWhere(q, auth, 'view'),
    decorate: (rows) => service.decorate(rows, auth),
    estimateScale: service.binding.hooks?.estimateScale,
    rowsOf: readsAllTenants(def, auth) ? ALL_TENANTS : service.tenantOfRows(auth),
    filterKey: service.filterKey(query, auth),
  };
}

/**
 * Append-only series (`def.series`): the service's `page` reads a bounded time range by keyset,
 * with estimated totals when large (series-page.ts), for the generic list and for any module that
 * pages the service itself (the error log's filtered list).
 */
export const seriesPlugin: ResourcePlugin = {
  name: 'series',
  appliesTo: (binding) => binding.def.series !== undefined,
  attach: () => ({
    page: (service) => (query, auth) => seriesPage(seriesSourceOf(service, query, auth), query),
  }),
};

import { datasourceResource, tenantResource } from '@mes/contracts';
import { apiPost, resourceRoute } from '../../../api/server-state';

export interface TenantSettings {
  accountNumber: number;
  /** `yyyy-MM-dd HH:mm:ss`, or empty for no expiry. */
  expireTime: string;
}

export const saveTenantSettings = (ids: readonly string[], settings: TenantSettings) =>
  apiPost(
    resourceRoute(tenantResource, 'setting'),
    { ids: ids.join(','), accountNumber: String(settings.accountNumber), expireTime: settings.expireTime },
    { form: true },
  );

export interface DatasourceOption {
  id: string;
  name: string;
}

/** Every datasource, for the picker: the list answers a page, one large page is enough. */
export const DATASOURCE_LIST_ROUTE = resourceRoute(datasourceResource, 'list');
export const DATASOURCE_PICKER_PARAMS = { current: 1, size: 1000 } as const;
export type DatasourceListAnswer = { records?: DatasourceOption[] } | DatasourceOption[] | null;

export function datasourceOptionsOf(data: DatasourceListAnswer): DatasourceOption[] {
  const rows = Array.isArray(data) ? data : (data?.records ?? []);
  return rows.map((r) => ({ id: String(r.id), name: String(r.name) }));
}

/** Binds a tenant (by its tenant code) to a datasource. */
export const saveTenantDatasource = (tenantId: string, datasourceId: string) =>
  apiPost(resourceRoute(tenantResource, 'datasource'), { tenantId, datasourceId }, { form: true });

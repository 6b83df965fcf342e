import { useMemo } from 'react';
import { DEFAULT_TENANT_ID, type FieldDef, type LocalText, type ResourceDef } from '@mes/contracts';
import { useSession } from '../session/session-store';
import type { ExtraColumn } from './resource-page-types';

const TENANT_LABEL: LocalText = { zh: '所属租户', en: 'Tenant' };

/** The `tenantId` filter of a list that spans every tenant: a search input, nothing else. */
const tenantFilter: FieldDef = { kind: 'string', label: TENANT_LABEL, max: 12, search: true, form: false, list: false };

/**
 * The platform reads every tenant's rows of some resources (`platformSeesAllTenants`): its
 * screens then get a tenant filter and a tenant column, unless the screen shows the tenant
 * itself. Everyone else sees only their tenant, so the screen stays as the definition says.
 */
export function useTenantView(
  def: ResourceDef,
  extraColumns: ExtraColumn[] | undefined,
  lang: keyof LocalText,
): { def: ResourceDef; extraColumns: ExtraColumn[] | undefined } {
  const tenantId = useSession((s) => s.userInfo.tenant_id ?? s.userInfo.tenantId);
  const spans = def.owner === 'tenant' && def.platformSeesAllTenants === true && tenantId === DEFAULT_TENANT_ID;
  return useMemo(() => {
    if (!spans) return { def, extraColumns };
    const shown = extraColumns?.some((c) => c.key === 'tenantId' || c.key === 'tenantName');
    const column: ExtraColumn = {
      key: 'tenantName',
      title: TENANT_LABEL[lang],
      width: 120,
      render: (row) => String(row.tenantName ?? row.tenantId ?? ''),
    };
    return {
      def: { ...def, fields: { ...def.fields, tenantId: def.fields.tenantId ?? tenantFilter } },
      extraColumns: shown ? extraColumns : [column, ...(extraColumns ?? [])],
    };
  }, [def, extraColumns, lang, spans]);
}

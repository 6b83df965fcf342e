import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TENANT_ID, tenantResource, type LocalText } from '@mes/contracts';
import { apiQuery, resourceRoute } from '../../../api/server-state';
import { optionQuery } from '../../../engine/use-field-options';
import { useSession } from '../../../session/session-store';
import { pageTexts } from '../../../i18n/page-texts';

const TEXT = pageTexts('deployFields');

export function useLang(): keyof LocalText {
  const { i18n } = useTranslation();
  return i18n.language.startsWith('en') ? 'en' : 'zh';
}

/**
 * Deploying for other tenants is the platform administrator's (the server refuses anyone else),
 * so only they are offered the tenant list.
 */
function usePlatformAdministrator(): boolean {
  const tenantId = useSession((s) => s.userInfo.tenant_id ?? s.userInfo.tenantId);
  const roles = useSession((s) => s.roles);
  const roleName = useSession((s) => String(s.userInfo.role_name ?? ''));
  return (
    tenantId === DEFAULT_TENANT_ID && (roles.includes('administrator') || roleName.split(',').includes('administrator'))
  );
}

const TENANT_SELECT = resourceRoute(tenantResource, 'select');

/** What a deploy sends besides the model or files: `category` and `tenantIds` (comma-joined). */
export interface DeployValues {
  category?: string;
  tenantIds?: string[];
}

export const deployParams = (values: DeployValues) => ({
  category: values.category ?? '',
  tenantIds: (values.tenantIds ?? []).join(','),
});

/** The category (dict `flow`) and, for the platform administrator, the tenants of a deploy. */
export function DeployFields() {
  const lang = useLang();
  const text = TEXT[lang];
  const platform = usePlatformAdministrator();
  const categoryQuery = optionQuery({ dict: 'flow' }, lang);
  const categories = useQuery({ ...categoryQuery!, enabled: Boolean(categoryQuery) });
  const tenants = useQuery({
    ...apiQuery<{ tenantId: string; tenantName: string }[]>(TENANT_SELECT, undefined, { silent: true }),
    enabled: platform,
  });
  return (
    <>
      <Form.Item name="category" label={text.category} rules={[{ required: true, message: text.categoryRequired }]}>
        <Select
          data-testid="flow-deploy-category"
          options={(categories.data ?? []).map((o) => ({ value: String(o.value), label: o.label }))}
        />
      </Form.Item>
      {platform ? (
        <Form.Item name="tenantIds" label={text.tenants} extra={text.tenantsHint}>
          <Select
            mode="multiple"
            data-testid="flow-deploy-tenants"
            options={(tenants.data ?? []).map((t) => ({ value: t.tenantId, label: `${t.tenantName} (${t.tenantId})` }))}
          />
        </Form.Item>
      ) : null}
    </>
  );
}

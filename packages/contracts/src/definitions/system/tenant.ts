import { ALL_OPERATIONS, defineResource } from '../../engine/define';

/**
 * Tenants; only the platform tenant (000000) manages them. As in the BladeX family, a tenant
 * added without `tenantId` gets a generated one (six random digits), and the bound domain is
 * `domain` (stored in the `domain_url` column of the first migration).
 */
export const tenantResource = defineResource({
  code: 'tenant',
  title: { zh: '租户管理', en: 'Tenants' },
  table: 'blade_tenant',
  api: '/blade-system/tenant',
  menu: {
    group: 'system',
    sort: 9,
    icon: 'team',
    platformOnly: true,
    buttons: [
      { action: 'setting', name: { zh: '授权配置', en: 'Licence' } },
      { action: 'datasource', name: { zh: '数据源配置', en: 'Data source' } },
    ],
    scopes: [
      { action: 'setting', name: '租户授权配置', path: '/api/blade-system/tenant/setting' },
      { action: 'datasource', name: '租户数据源配置', path: '/api/blade-system/tenant/datasource' },
    ],
  },
  owner: 'platform',
  // The family's tenant picker on the user, dept, post and role forms: the platform picks among
  // every tenant, any other caller sees only its own; label tenantName, value tenantId.
  operations: [...ALL_OPERATIONS, 'select'],
  select: { anyUser: true, fields: ['tenantId', 'tenantName'], ownTenantRows: true },
  fields: {
    tenantId: {
      kind: 'string',
      label: { zh: '租户ID', en: 'Tenant id' },
      max: 12,
      pattern: {
        regex: '^[0-9A-Za-z]{1,12}$',
        message: { zh: '租户ID只能包含字母和数字', en: 'Letters and digits only' },
      },
      form: 'create',
      search: true,
      sort: true,
    },
    tenantName: { kind: 'string', label: { zh: '租户名称', en: 'Tenant name' }, max: 50, required: true, search: true },
    domain: { kind: 'string', label: { zh: '域名地址', en: 'Domain' }, column: 'domain_url', max: 255, width: 200 },
    backgroundUrl: { kind: 'string', label: { zh: '系统背景', en: 'Background URL' }, max: 1000, list: false },
    linkman: { kind: 'string', label: { zh: '联系人', en: 'Contact' }, max: 50, required: true, search: true },
    contactNumber: {
      kind: 'string',
      label: { zh: '联系电话', en: 'Phone' },
      max: 30,
    },
    address: { kind: 'string', label: { zh: '联系地址', en: 'Address' }, max: 255, list: false, wide: true },
    accountNumber: {
      kind: 'int',
      label: { zh: '账号额度', en: 'Account quota' },
      default: -1,
      range: [-1, 1000000],
      form: false,
    },
    expireTime: { kind: 'datetime', label: { zh: '过期时间', en: 'Expires' }, form: false },
    datasourceId: { kind: 'id', label: { zh: '数据源', en: 'Datasource' }, nullable: true, form: false, list: false },
    licenseKey: { kind: 'text', label: { zh: '授权码', en: 'License' }, form: false },
  },
  indexes: [
    {
      name: 'blade_tenant_tenant_id_uq',
      fields: ['tenantId'],
      unique: true,
      message: { zh: '租户ID已存在', en: 'The tenant id already exists' },
    },
  ],
  defaultSort: [{ field: 'tenantId' }],
});

import { ALL_OPERATIONS, defineResource } from '../../engine/define';
import { remarkField } from '../common-fields';

/** External PostgreSQL databases a tenant or the code generator may use. */
export const datasourceResource = defineResource({
  code: 'datasource',
  title: { zh: '数据源管理', en: 'Datasources' },
  table: 'blade_datasource',
  api: '/blade-develop/datasource',
  menu: {
    group: 'tool',
    sort: 1,
    icon: 'database',
    nameEn: 'Data sources',
    platformOnly: true,
    buttons: [{ action: 'test', name: { zh: '连接测试', en: 'Test connection' } }],
    scopes: [{ action: 'test', name: '数据源连接测试', path: '/api/blade-develop/datasource/test' }],
  },
  owner: 'platform',
  // `select`: the picker of the user form (posts) and the code generator (datasources).
  operations: [...ALL_OPERATIONS, 'select'],
  fields: {
    name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 100, required: true, search: true },
    driverClass: {
      kind: 'string',
      label: { zh: '驱动类', en: 'Driver' },
      max: 100,
      default: 'org.postgresql.Driver',
      control: 'select',
      options: { items: [{ value: 'org.postgresql.Driver', label: { zh: 'PostgreSQL', en: 'PostgreSQL' } }] },
    },
    url: {
      kind: 'string',
      label: { zh: '连接地址', en: 'URL' },
      max: 500,
      required: true,
      pattern: {
        regex: '^(postgres|postgresql)://[^\\s]+$|^jdbc:postgresql://[^\\s]+$',
        message: { zh: '只支持 PostgreSQL 连接地址', en: 'Only PostgreSQL URLs are supported' },
      },
      wide: true,
    },
    username: { kind: 'string', label: { zh: '用户名', en: 'User' }, max: 100, required: true },
    password: { kind: 'secret', label: { zh: '密码', en: 'Password' }, max: 1000, sealed: true },
    remark: remarkField(),
  },
  defaultSort: [{ field: 'name' }],
});

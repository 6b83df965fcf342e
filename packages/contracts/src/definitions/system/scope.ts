import { defineResource } from '../../engine/define';
import { remarkField } from '../common-fields';

const menuField = {
  kind: 'id',
  label: { zh: '所属菜单', en: 'Menu' },
  required: true,
  control: 'tree-select',
  options: { url: '/blade-system/menu/tree' },
  search: true,
  list: false,
} as const;

/**
 * Data scopes: which rows of a resource a role sees. `resourceCode` names the resource
 * (`user`, `dept`, ...); types 1 all, 2 own, 3 own department, 4 department and children,
 * 5 custom (`scopeValue` holds department ids).
 */
export const dataScopeResource = defineResource({
  code: 'data_scope',
  title: { zh: '数据权限', en: 'Data scopes' },
  table: 'blade_scope_data',
  api: '/blade-system/data-scope',
  menu: {
    group: 'authority',
    sort: 2,
    icon: 'database',
    path: '/authority/datascope',
    platformOnly: true,
    // The family's name (`data_scope_setting`): configuring the scopes of one menu.
    buttons: [{ action: 'setting', name: { zh: '权限配置', en: 'Scopes' } }],
  },
  owner: 'shared',
  fields: {
    menuId: menuField,
    resourceCode: {
      kind: 'string',
      label: { zh: '资源编号', en: 'Resource code' },
      max: 255,
      required: true,
      search: true,
    },
    scopeName: { kind: 'string', label: { zh: '权限名称', en: 'Name' }, max: 255, required: true, search: true },
    scopeType: {
      kind: 'int',
      label: { zh: '规则类型', en: 'Type' },
      required: true,
      default: 1,
      options: { dict: 'data_scope_type' },
      search: true,
    },
    scopeColumn: { kind: 'string', label: { zh: '权限字段', en: 'Column' }, max: 255, list: false },
    scopeField: {
      kind: 'string',
      label: { zh: '可见字段', en: 'Visible fields' },
      max: 255,
      default: '*',
      list: false,
    },
    scopeClass: { kind: 'string', label: { zh: '权限类名', en: 'Class' }, max: 500, list: false },
    scopeValue: {
      kind: 'ids',
      label: { zh: '自定义部门', en: 'Custom departments' },
      max: 2000,
      control: 'multi-tree-select',
      options: { url: '/blade-system/dept/tree' },
      list: false,
    },
    remark: remarkField(),
  },
  indexes: [{ fields: ['resourceCode'] }],
  defaultSort: [{ field: 'resourceCode' }],
});

/**
 * API scopes: a role may call a route only when one of its granted scopes covers it.
 * `resourceCode` is the route's scope code (`post:read`, `user:grant`, ...); `scopePath` may
 * also cover routes by path pattern (`/api/blade-system/post/**`).
 */
export const apiScopeResource = defineResource({
  code: 'api_scope',
  title: { zh: '接口权限', en: 'API scopes' },
  table: 'blade_scope_api',
  api: '/blade-system/api-scope',
  menu: {
    group: 'authority',
    sort: 3,
    icon: 'api',
    path: '/authority/apiscope',
    platformOnly: true,
    // The family's name (`api_scope_setting`): configuring the scopes of one menu.
    buttons: [{ action: 'setting', name: { zh: '权限配置', en: 'Scopes' } }],
  },
  owner: 'shared',
  fields: {
    menuId: menuField,
    resourceCode: {
      kind: 'string',
      label: { zh: '权限编号', en: 'Scope code' },
      max: 255,
      required: true,
      search: true,
    },
    scopeName: { kind: 'string', label: { zh: '接口名称', en: 'Name' }, max: 255, required: true, search: true },
    scopePath: {
      kind: 'string',
      label: { zh: '接口路径', en: 'Path pattern' },
      max: 255,
      pattern: { regex: '^(/[A-Za-z0-9_.*{}-]*)*$', message: { zh: '接口路径应以 / 开头', en: 'Must start with /' } },
    },
    scopeType: {
      kind: 'int',
      label: { zh: '接口类型', en: 'Type' },
      required: true,
      default: 1,
      options: { dict: 'api_scope_type' },
      search: true,
    },
    remark: remarkField(),
  },
  indexes: [{ fields: ['resourceCode'] }],
  defaultSort: [{ field: 'resourceCode' }],
});

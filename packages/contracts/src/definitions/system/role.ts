import { defineResource } from '../../engine/define';
import { parentField, sortField } from '../common-fields';

export const roleResource = defineResource({
  code: 'role',
  title: { zh: '角色管理', en: 'Roles' },
  table: 'blade_role',
  api: '/blade-system/role',
  menu: {
    group: 'authority',
    sort: 1,
    icon: 'team',
    buttons: [
      { action: 'setting', name: { zh: '权限设置', en: 'Permissions' } },
      { action: 'cache', name: { zh: '清除缓存', en: 'Clear cache' } },
    ],
    scopes: [
      { action: 'grant', name: '角色权限设置', path: '/api/blade-system/role/grant' },
      // Administrators empty the server caches (the tab menu's 清除缓存); a tenant's only its own.
      { action: 'cache', name: '清除缓存', path: '/api/blade-auth/oauth/clear-cache' },
    ],
  },
  owner: 'tenant',
  platformSeesAllTenants: true,
  tree: { parent: 'parentId', title: 'roleName' },
  fields: {
    roleName: { kind: 'string', label: { zh: '角色名称', en: 'Role name' }, max: 255, required: true, search: true },
    roleAlias: {
      kind: 'string',
      label: { zh: '角色别名', en: 'Alias' },
      max: 255,
      required: true,
      pattern: {
        regex: '^[A-Za-z][A-Za-z0-9_]*$',
        message: { zh: '别名只能包含字母、数字和下划线', en: 'Letters, digits and _ only' },
      },
      search: true,
    },
    parentId: parentField({ zh: '上级角色', en: 'Parent role' }, '/blade-system/role/tree'),
    sort: sortField(),
  },
  indexes: [{ name: 'blade_role_tenant_idx', fields: ['tenantId'] }],
  defaultSort: [{ field: 'sort' }],
});

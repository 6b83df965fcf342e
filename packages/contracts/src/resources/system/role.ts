import { defineResource } from '../../resource/define';
import { parentField, sortField } from '../common-fields';

export const roleResource = defineResource({
  code: 'role',
  title: { zh: '角色管理', en: 'Roles' },
  table: 'blade_role',
  api: '/blade-system/role',
  owner: 'tenant',
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

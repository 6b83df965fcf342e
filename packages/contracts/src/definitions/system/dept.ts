import { defineResource } from '../../engine/define';
import { parentField, remarkField, sortField } from '../common-fields';

/**
 * Departments form the organisation tree. Besides companies, departments and teams, an MES
 * tenant has disinfection bases (category 4) and the clinic nodes they serve (category 5);
 * see docs/organisation.md.
 */
export const deptResource = defineResource({
  code: 'dept',
  title: { zh: '部门管理', en: 'Departments' },
  table: 'blade_dept',
  api: '/blade-system/dept',
  menu: {
    group: 'system',
    sort: 2,
    icon: 'apartment',
    scopes: [{ action: 'lines', name: '线路节点配置', path: '/api/blade-system/dept/setLines' }],
  },
  owner: 'tenant',
  platformSeesAllTenants: true,
  tree: { parent: 'parentId', title: 'deptName' },
  dataScope: { userColumn: 'create_user', deptColumn: 'id' },
  fields: {
    deptName: { kind: 'string', label: { zh: '机构名称', en: 'Name' }, max: 45, required: true, search: true },
    fullName: { kind: 'string', label: { zh: '机构全称', en: 'Full name' }, max: 45, required: true, search: true },
    parentId: parentField({ zh: '上级机构', en: 'Parent' }, '/blade-system/dept/tree'),
    deptCategory: {
      kind: 'int',
      label: { zh: '机构类型', en: 'Category' },
      default: 1,
      required: true,
      options: { dict: 'org_category' },
      search: true,
    },
    ancestors: {
      kind: 'string',
      label: { zh: '祖级列表', en: 'Ancestors' },
      max: 2000,
      default: '0',
      form: false,
      list: false,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [{ name: 'blade_dept_tenant_idx', fields: ['tenantId'] }],
  defaultSort: [{ field: 'sort' }],
});

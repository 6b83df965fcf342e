import { ALL_OPERATIONS, defineResource } from '../../engine/define';
import { remarkField, sortField } from '../common-fields';

export const postResource = defineResource({
  code: 'post',
  title: { zh: '岗位管理', en: 'Posts' },
  table: 'blade_post',
  api: '/blade-system/post',
  menu: { group: 'system', sort: 3, icon: 'idcard' },
  owner: 'tenant',
  // `select`: the picker of the user form (posts) and the code generator (datasources).
  operations: [...ALL_OPERATIONS, 'select'],
  fields: {
    category: {
      kind: 'int',
      label: { zh: '岗位类型', en: 'Category' },
      default: 1,
      required: true,
      options: { dict: 'post_category' },
      search: true,
    },
    postCode: {
      kind: 'string',
      label: { zh: '岗位编号', en: 'Code' },
      max: 12,
      required: true,
      search: true,
      sort: true,
    },
    postName: {
      kind: 'string',
      label: { zh: '岗位名称', en: 'Name' },
      max: 64,
      required: true,
      search: true,
      sort: true,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [{ name: 'blade_post_tenant_idx', fields: ['tenantId'] }],
  defaultSort: [{ field: 'sort' }],
});

import { defineResource } from '../../resource/define';
import { sortField } from '../common-fields';

export const topMenuResource = defineResource({
  code: 'topmenu',
  title: { zh: '顶部菜单', en: 'Top menus' },
  table: 'blade_top_menu',
  api: '/blade-system/topmenu',
  owner: 'tenant',
  fields: {
    code: { kind: 'string', label: { zh: '菜单编号', en: 'Code' }, max: 255, required: true, search: true },
    name: { kind: 'string', label: { zh: '菜单名称', en: 'Name' }, max: 255, required: true, search: true },
    source: { kind: 'string', label: { zh: '菜单图标', en: 'Icon' }, max: 255 },
    sort: sortField(),
  },
  indexes: [{ name: 'blade_top_menu_tenant_idx', fields: ['tenantId'] }],
  defaultSort: [{ field: 'sort' }],
});

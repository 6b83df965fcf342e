import { defineResource } from '../../engine/define';
import { sortField } from '../common-fields';

/** Top menus of the shell's top bar; `path` is the address the item opens (as the family keeps it). */
export const topMenuResource = defineResource({
  code: 'topmenu',
  title: { zh: '顶部菜单', en: 'Top menus' },
  table: 'blade_top_menu',
  api: '/blade-system/topmenu',
  menu: {
    group: 'system',
    sort: 7,
    icon: 'appstore',
    buttons: [{ action: 'setting', name: { zh: '菜单配置', en: 'Menus' } }],
    scopes: [{ action: 'grant', name: '顶部菜单配置', path: '/api/blade-system/topmenu/grant' }],
  },
  owner: 'tenant',
  fields: {
    code: { kind: 'string', label: { zh: '菜单编号', en: 'Code' }, max: 255, required: true, search: true },
    name: { kind: 'string', label: { zh: '菜单名称', en: 'Name' }, max: 255, required: true, search: true },
    source: { kind: 'string', label: { zh: '菜单图标', en: 'Icon' }, max: 255 },
    path: { kind: 'string', label: { zh: '路由地址', en: 'Path' }, max: 255 },
    sort: sortField(),
  },
  indexes: [{ name: 'blade_top_menu_tenant_idx', fields: ['tenantId'] }],
  defaultSort: [{ field: 'sort' }],
});

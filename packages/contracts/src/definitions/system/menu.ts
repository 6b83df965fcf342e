import { defineResource } from '../../engine/define';
import { parentField, remarkField, sortField } from '../common-fields';

/** Menus (category 1) and the buttons under them (category 2); shared by every tenant. */
export const menuResource = defineResource({
  code: 'menu',
  title: { zh: '菜单管理', en: 'Menus' },
  table: 'blade_menu',
  api: '/blade-system/menu',
  menu: { group: 'system', sort: 6, icon: 'menu', platformOnly: true },
  owner: 'shared',
  tree: { parent: 'parentId', title: 'name' },
  fields: {
    name: { kind: 'string', label: { zh: '菜单名称', en: 'Name' }, max: 255, required: true, search: true },
    // The shell shows this one while the interface is in English; empty falls back to `name`.
    nameEn: { kind: 'string', label: { zh: '英文名称', en: 'English name' }, max: 255 },
    code: {
      kind: 'string',
      label: { zh: '菜单编号', en: 'Code' },
      max: 255,
      required: true,
      pattern: {
        regex: '^[A-Za-z][A-Za-z0-9_:-]*$',
        message: { zh: '编号只能包含字母、数字和 _ : -', en: 'Letters, digits and _ : - only' },
      },
      search: true,
    },
    alias: { kind: 'string', label: { zh: '菜单别名', en: 'Alias' }, max: 255, search: true },
    path: { kind: 'string', label: { zh: '路由地址', en: 'Path' }, max: 255 },
    parentId: parentField({ zh: '上级菜单', en: 'Parent' }, '/blade-system/menu/tree'),
    source: { kind: 'string', label: { zh: '菜单图标', en: 'Icon' }, max: 255, width: 90 },
    category: {
      kind: 'int',
      label: { zh: '菜单类型', en: 'Type' },
      default: 1,
      required: true,
      control: 'radio',
      options: { dict: 'menu_category' },
      search: true,
      width: 90,
    },
    action: {
      kind: 'int',
      label: { zh: '按钮功能', en: 'Button position' },
      default: 0,
      options: { dict: 'button_func' },
      list: false,
    },
    isOpen: {
      kind: 'int',
      label: { zh: '新窗口', en: 'New window' },
      default: 1,
      control: 'radio',
      options: { dict: 'yes_no' },
      list: false,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [
    {
      name: 'blade_menu_code_uq',
      fields: ['code'],
      unique: true,
      message: { zh: '菜单编号已存在', en: 'The menu code already exists' },
    },
  ],
  defaultSort: [{ field: 'sort' }],
});

import { defineResource, type FieldMap } from '../../engine/define';
import { remarkField } from '../common-fields';

/** Spec section 3 and 5: the dictionary fields, their rules and messages. */
const dictFields = (treeUrl: string) =>
  ({
    code: {
      kind: 'string',
      label: { zh: '字典编号', en: 'Code' },
      max: 255,
      required: true,
      requiredMessage: { zh: '请输入字典编号', en: 'Please enter the dictionary code' },
      search: true,
      sort: true,
    },
    dictValue: {
      kind: 'string',
      label: { zh: '字典名称', en: 'Name' },
      max: 255,
      required: true,
      requiredMessage: { zh: '请输入字典名称', en: 'Please enter the dictionary name' },
      search: true,
    },
    parentId: {
      kind: 'id',
      label: { zh: '上级字典', en: 'Parent' },
      default: '0',
      control: 'tree-select',
      options: { url: treeUrl },
      list: false,
    },
    dictKey: {
      kind: 'string',
      label: { zh: '字典键值', en: 'Key' },
      max: 255,
      required: true,
      requiredMessage: { zh: '请输入字典键值', en: 'Please enter the dictionary key' },
      default: '-1',
      // The family's dictionary screen edits the key in a number column and sends -1 as a number.
      numberAsText: true,
    },
    sort: {
      kind: 'int',
      label: { zh: '字典排序', en: 'Sort' },
      required: true,
      default: 0,
      range: [-999999, 999999],
      requiredMessage: { zh: '请输入字典排序', en: 'Please enter the sort order' },
      sort: true,
    },
    isSealed: {
      kind: 'int',
      label: { zh: '封存', en: 'Sealed' },
      required: true,
      default: 0,
      control: 'radio',
      options: {
        items: [
          { value: 0, label: { zh: '否', en: 'No' } },
          { value: 1, label: { zh: '是', en: 'Yes' } },
        ],
      },
      requiredMessage: { zh: '请选择字典是否封存', en: 'Please select whether it is sealed' },
      search: true,
    },
    // The family's dictionary screen searches by remark; ours does not offer it.
    remark: { ...remarkField(), filter: true },
  }) satisfies FieldMap;

/** System dictionaries, shared by every tenant; only the platform tenant changes them. */
export const dictResource = defineResource({
  code: 'dict',
  title: { zh: '系统字典', en: 'System dictionaries' },
  table: 'blade_dict',
  api: '/blade-system/dict',
  menu: { group: 'system', sort: 4, icon: 'book', nameEn: 'System dictionary', platformOnly: true },
  owner: 'shared',
  tree: { parent: 'parentId', title: 'dictValue' },
  fields: dictFields('/blade-system/dict/tree?code=DICT'),
  indexes: [
    { name: 'blade_dict_code_idx', fields: ['code'] },
    // A parent's key is -1, so this also keeps parent codes unique.
    { fields: ['code', 'dictKey'], unique: true, message: { zh: '当前字典键值已存在', en: 'This key already exists' } },
  ],
  defaultSort: [{ field: 'sort' }],
  dialogWidth: 880,
});

/** Business dictionaries, one set per tenant. */
export const dictBizResource = defineResource({
  code: 'dictbiz',
  title: { zh: '业务字典', en: 'Business dictionaries' },
  table: 'blade_dict_biz',
  api: '/blade-system/dict-biz',
  menu: { group: 'system', sort: 5, icon: 'read', nameEn: 'Business dictionary' },
  owner: 'tenant',
  tree: { parent: 'parentId', title: 'dictValue' },
  fields: dictFields('/blade-system/dict-biz/tree?code=DICT'),
  indexes: [
    { name: 'blade_dict_biz_code_idx', fields: ['tenantId', 'code'] },
    {
      fields: ['tenantId', 'code', 'dictKey'],
      unique: true,
      message: { zh: '当前字典键值已存在', en: 'This key already exists' },
    },
  ],
  defaultSort: [{ field: 'sort' }],
  dialogWidth: 880,
});

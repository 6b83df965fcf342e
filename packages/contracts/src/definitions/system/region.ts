import { defineResource } from '../../engine/define';
import { remarkField, sortField } from '../common-fields';

/** Administrative regions, keyed by their national code; shared by every tenant. */
export const regionResource = defineResource({
  code: 'region',
  title: { zh: '行政区划', en: 'Regions' },
  table: 'blade_region',
  api: '/blade-system/region',
  menu: {
    group: 'system',
    sort: 11,
    icon: 'environment',
    platformOnly: true,
    // The family's names: region_debug opens the cascading picker of regions.
    buttons: [{ action: 'debug', name: { zh: '区划调试', en: 'Try regions' } }],
  },
  owner: 'shared',
  operations: ['list', 'submit', 'remove', 'export', 'select'],
  // The family's cascading pickers, on every tenant's address forms: the regions directly under
  // `code` (a region code), the top level by default.
  select: { anyUser: true, children: { param: 'code', field: 'parentCode', root: '00', checkAs: 'code' } },
  fields: {
    code: {
      kind: 'string',
      label: { zh: '区划编号', en: 'Code' },
      max: 12,
      required: true,
      pattern: { regex: '^\\d{1,12}$', message: { zh: '区划编号只能是数字', en: 'Digits only' } },
      form: 'create',
      search: true,
      sort: true,
    },
    parentCode: {
      kind: 'string',
      label: { zh: '上级编号', en: 'Parent code' },
      max: 12,
      default: '00',
      form: 'create',
      search: true,
    },
    ancestors: { kind: 'string', label: { zh: '祖区划编号', en: 'Ancestors' }, max: 255, form: false, list: false },
    name: { kind: 'string', label: { zh: '区划名称', en: 'Name' }, max: 32, required: true, search: true },
    regionLevel: {
      kind: 'int',
      label: { zh: '区划层级', en: 'Level' },
      required: true,
      default: 1,
      options: { dict: 'region' },
      search: true,
    },
    provinceCode: { kind: 'string', label: { zh: '省级编号', en: 'Province code' }, max: 12, form: false, list: false },
    provinceName: { kind: 'string', label: { zh: '省级名称', en: 'Province' }, max: 32, form: false, list: false },
    cityCode: { kind: 'string', label: { zh: '市级编号', en: 'City code' }, max: 12, form: false, list: false },
    cityName: { kind: 'string', label: { zh: '市级名称', en: 'City' }, max: 32, form: false, list: false },
    districtCode: { kind: 'string', label: { zh: '区级编号', en: 'District code' }, max: 12, form: false, list: false },
    districtName: { kind: 'string', label: { zh: '区级名称', en: 'District' }, max: 32, form: false, list: false },
    townCode: { kind: 'string', label: { zh: '镇级编号', en: 'Town code' }, max: 12, form: false, list: false },
    townName: { kind: 'string', label: { zh: '镇级名称', en: 'Town' }, max: 32, form: false, list: false },
    villageCode: { kind: 'string', label: { zh: '村级编号', en: 'Village code' }, max: 12, form: false, list: false },
    villageName: { kind: 'string', label: { zh: '村级名称', en: 'Village' }, max: 32, form: false, list: false },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [
    { fields: ['code'], unique: true, message: { zh: '区划编号已存在', en: 'The region code already exists' } },
    { fields: ['parentCode'] },
  ],
  defaultSort: [{ field: 'sort' }, { field: 'code' }],
});

import { defineResource, type ResourceDef } from '../../resource/define';
import { remarkField, sortField } from '../common-fields';
import { barCodeField, baseField } from './logistics-fields';
import { lineResource } from './line';

/**
 * A car of a disinfection base that drives its lines (docs/logistics.md). Its base is a base
 * department (category 4) and its line, when it has one, a line of that same base.
 */
export const carResource = defineResource({
  code: 'car',
  title: { zh: '车辆管理', en: 'Cars' },
  table: 'blade_car',
  api: '/blade-business/car',
  listRoute: 'page',
  owner: 'tenant',
  menu: { group: 'business', sort: 6, icon: 'car', nameEn: 'Cars' },
  fields: {
    name: { kind: 'string', label: { zh: '车辆名称', en: 'Name' }, max: 64, required: true, search: true },
    plate: {
      kind: 'string',
      label: { zh: '车牌号', en: 'Plate' },
      max: 16,
      required: true,
      search: true,
      // A mainland plate: province, letter, then five or six letters and digits (new-energy plates have six).
      pattern: {
        regex: '^[\\u4e00-\\u9fa5][A-Z][A-Z0-9]{5,6}$',
        message: {
          zh: '车牌号格式不正确,例如 苏E12345',
          en: 'The plate is not a valid plate, e.g. 苏E12345',
        },
      },
      width: 110,
    },
    barCode: barCodeField(),
    base: baseField(true),
    line: {
      kind: 'reference',
      label: { zh: '线路', en: 'Line' },
      search: true,
      // A line removed leaves its cars without one rather than refusing the removal.
      reference: {
        to: (): ResourceDef => lineResource,
        label: 'name',
        onRemove: 'clear',
        matches: { field: 'base', targetField: 'base' },
      },
      width: 140,
    },
    capacity: {
      kind: 'int',
      label: { zh: '装载量(箱)', en: 'Capacity (boxes)' },
      range: [0, 9999],
      default: 0,
      width: 100,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [
    { fields: ['tenantId', 'plate'], unique: true, message: { zh: '车牌号已存在', en: 'The plate exists' } },
    { fields: ['tenantId', 'barCode'], unique: true, message: { zh: '条码已存在', en: 'The bar code exists' } },
  ],
  defaultSort: [{ field: 'sort' }],
});

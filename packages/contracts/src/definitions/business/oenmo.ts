import { defineResource } from '../../engine/define';
import { remarkField, sortField } from '../common-fields';
import { codeField } from './logistics-fields';

/**
 * The spec names this screen `oenmo` and nothing more; no public meaning was found. We read it as
 * an OEM register (DOMAIN.md): editable master data of the brands and customers the company
 * builds equipment for, with the products each one carries. The code and API keep the spec's
 * `oenmo`; the menu says what it is (issue 30: users could not tell), docs/logistics.md records
 * the assumption.
 */
export const oenmoResource = defineResource({
  code: 'oenmo',
  title: { zh: 'OEM 品牌登记', en: 'OEM brands' },
  summary: {
    zh: '为哪些客户或品牌贴牌(OEM)、设计制造(ODM)或以自有品牌生产设备,各带哪些产品。',
    en: 'The customers and brands we build equipment for (OEM, ODM or our own brand), with the products each one carries.',
  },
  table: 'blade_oenmo',
  api: '/blade-business/oenmo',
  listRoute: 'page',
  owner: 'tenant',
  menu: {
    group: 'business',
    sort: 8,
    icon: 'tags',
    nameEn: 'OEM brands',
    dictionaries: [
      {
        code: 'oenmo_type',
        name: 'OEM 品牌类型',
        entries: [
          ['1', 'OEM 贴牌', 'OEM'],
          ['2', 'ODM 设计制造', 'ODM'],
          ['3', '自有品牌', 'Own brand'],
        ],
      },
      {
        code: 'oenmo_status',
        name: 'OEM 品牌状态',
        entries: [
          ['1', '启用', 'Enabled'],
          ['2', '停用', 'Disabled'],
        ],
      },
    ],
  },
  fields: {
    code: codeField({ zh: '编号', en: 'Code' }),
    name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 64, required: true, search: true },
    type: {
      kind: 'int',
      label: { zh: '类型', en: 'Type' },
      required: true,
      range: [1, 3],
      options: { dict: 'oenmo_type' },
      search: true,
      width: 120,
    },
    customer: { kind: 'string', label: { zh: '客户/品牌', en: 'Customer / brand' }, max: 128, search: true },
    productIds: {
      kind: 'ids',
      label: { zh: '关联产品', en: 'Products' },
      max: 1000,
      control: 'multi-select',
      options: { url: '/basic/product/list?size=1000', label: 'productName', value: 'id' },
      list: false,
    },
    status: {
      kind: 'int',
      label: { zh: '状态', en: 'Status' },
      default: 1,
      range: [1, 2],
      options: { dict: 'oenmo_status' },
      search: true,
      width: 90,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [{ fields: ['tenantId', 'code'], unique: true, message: { zh: '编号已存在', en: 'The code exists' } }],
  defaultSort: [{ field: 'sort' }],
});

import { defineResource } from '../../resource/define';
import { remarkField, sortField } from '../common-fields';
import { codeField } from './logistics-fields';

/**
 * The spec names this screen `oenmo` and nothing more; no public meaning was found. We read it as
 * an OEM register (DOMAIN.md): editable master data of the brands and customers the company
 * builds equipment for, with the products each one carries. The menu keeps the label as given;
 * docs/logistics.md records the assumption.
 */
export const oenmoResource = defineResource({
  code: 'oenmo',
  title: { zh: 'oenmo', en: 'oenmo' },
  table: 'blade_oenmo',
  api: '/blade-business/oenmo',
  listRoute: 'page',
  owner: 'tenant',
  menu: {
    group: 'business',
    sort: 8,
    icon: 'tags',
    nameEn: 'oenmo',
    dictionaries: [
      {
        code: 'oenmo_type',
        name: 'oenmo类型',
        entries: [
          ['1', 'OEM 贴牌', 'OEM'],
          ['2', 'ODM 设计制造', 'ODM'],
          ['3', '自有品牌', 'Own brand'],
        ],
      },
      {
        code: 'oenmo_status',
        name: 'oenmo状态',
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

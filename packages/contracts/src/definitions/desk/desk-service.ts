import { defineResource } from '../../engine/define';
import { remarkField, sortField } from '../common-fields';

/**
 * The desk's service catalogue (`/blade-desk/service`): what the maker's service desk offers its
 * clinics — repair, maintenance, consumables, training, verification, consulting — with who
 * answers, how to reach them and how soon (docs/desk.md). Plain master data; enabled entries are
 * the catalogue.
 */
export const deskServiceResource = defineResource({
  code: 'desk_service',
  title: { zh: '服务台服务', en: 'Desk services' },
  table: 'mes_desk_service',
  api: '/blade-desk/service',
  owner: 'tenant',
  menu: {
    group: 'business',
    sort: 31,
    icon: 'customer-service',
    nameEn: 'Desk services',
    dictionaries: [
      {
        code: 'desk_service_category',
        name: '服务类别',
        entries: [
          ['1', '维修', 'Repair'],
          ['2', '保养', 'Maintenance'],
          ['3', '耗材', 'Consumables'],
          ['4', '培训', 'Training'],
          ['5', '检测验证', 'Testing and verification'],
          ['6', '咨询', 'Consulting'],
        ],
      },
    ],
  },
  fields: {
    serviceCode: {
      kind: 'string',
      label: { zh: '服务编号', en: 'Code' },
      max: 32,
      required: true,
      search: true,
      sort: true,
      pattern: {
        regex: '^[A-Za-z0-9_-]+$',
        message: { zh: '服务编号只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
      },
      width: 120,
    },
    serviceName: {
      kind: 'string',
      label: { zh: '服务名称', en: 'Name' },
      max: 64,
      required: true,
      search: true,
      width: 160,
    },
    category: {
      kind: 'int',
      label: { zh: '服务类别', en: 'Category' },
      required: true,
      default: 1,
      options: { dict: 'desk_service_category' },
      search: true,
      width: 100,
    },
    contactName: { kind: 'string', label: { zh: '联系人', en: 'Contact' }, max: 32, width: 100 },
    contactPhone: {
      kind: 'string',
      label: { zh: '联系电话', en: 'Phone' },
      max: 32,
      pattern: {
        regex: '^[0-9+()\\- ]{3,32}$',
        message: { zh: '联系电话只能包含数字、+、-、括号和空格', en: 'Digits, +, -, brackets and spaces only' },
      },
      width: 130,
    },
    responseHours: {
      kind: 'int',
      label: { zh: '响应时限(小时)', en: 'Response (h)' },
      range: [0, 8760],
      default: 24,
      width: 110,
    },
    description: {
      kind: 'text',
      label: { zh: '服务说明', en: 'Description' },
      max: 2000,
      control: 'textarea',
      list: false,
      wide: true,
    },
    enabled: {
      kind: 'boolean',
      label: { zh: '是否启用', en: 'Enabled' },
      default: true,
      search: true,
      width: 90,
    },
    sort: sortField(),
    remark: remarkField(),
  },
  indexes: [
    { fields: ['tenantId', 'serviceCode'], unique: true, message: { zh: '服务编号已存在', en: 'The code exists' } },
  ],
  defaultSort: [{ field: 'sort' }],
});

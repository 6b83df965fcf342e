import { defineResource } from '../../engine/define';
import { remarkField } from '../common-fields';
import { deptResource } from '../system/dept';
import { barCodeField, codeField } from './logistics-fields';
import { expiryDateOf, packMaterialDictionary, validityDaysOf } from './pack-material';

const FROM_PACKING = ['packMaterial', 'climateControlled', 'packDate'] as const;

/**
 * An article the cars carry between clinics and their base (docs/logistics.md): an instrument
 * pack, a single instrument, a dressing pack, a loaner pack or a disposable, identified by its
 * bar code. Its validity days and expiry date are computed from its pack material and pack date
 * (`PACK_MATERIALS`), never typed.
 */
export const articleResource = defineResource({
  code: 'article',
  title: { zh: '物品管理', en: 'Articles' },
  table: 'blade_article',
  api: '/blade-business/article',
  listRoute: 'page',
  owner: 'tenant',
  dialogWidth: 880,
  menu: {
    group: 'business',
    sort: 7,
    icon: 'inbox',
    nameEn: 'Articles',
    dictionaries: [
      {
        code: 'article_category',
        name: '物品类别',
        entries: [
          ['1', '器械包', 'Instrument pack'],
          ['2', '单件器械', 'Single instrument'],
          ['3', '敷料包', 'Dressing pack'],
          ['4', '外来器械包', 'Loaner pack'],
          ['5', '一次性物品', 'Disposable'],
        ],
      },
      packMaterialDictionary,
      {
        code: 'sterilize_method',
        name: '灭菌方式',
        entries: [
          ['1', '压力蒸汽灭菌', 'Steam'],
          ['2', '过氧化氢低温等离子灭菌', 'Hydrogen peroxide plasma'],
          ['3', '环氧乙烷灭菌', 'Ethylene oxide'],
          ['4', '干热灭菌', 'Dry heat'],
          ['5', '低温甲醛蒸汽灭菌', 'Low-temperature steam formaldehyde'],
        ],
      },
    ],
  },
  fields: {
    code: codeField({ zh: '物品编号', en: 'Code' }),
    barCode: barCodeField(),
    name: { kind: 'string', label: { zh: '物品名称', en: 'Name' }, max: 64, required: true, search: true },
    category: {
      kind: 'int',
      label: { zh: '物品类别', en: 'Category' },
      required: true,
      range: [1, 5],
      options: { dict: 'article_category' },
      search: true,
      width: 110,
    },
    contents: {
      kind: 'string',
      label: { zh: '包内物品', en: 'Contents' },
      max: 500,
      control: 'textarea',
      wide: true,
      list: false,
    },
    packMaterial: {
      kind: 'int',
      label: { zh: '包装材料', en: 'Pack material' },
      required: true,
      range: [1, 5],
      options: { dict: 'pack_material' },
      search: true,
      width: 110,
    },
    climateControlled: {
      kind: 'boolean',
      label: { zh: '恒温恒湿储存', en: 'Climate-controlled storage' },
      // WS 310.2 counts on a controlled store; only textile packs keep less without one.
      default: true,
      list: false,
    },
    sterilizeMethod: {
      kind: 'int',
      label: { zh: '灭菌方式', en: 'Sterilisation method' },
      range: [1, 5],
      nullable: true,
      options: { dict: 'sterilize_method' },
      search: true,
      width: 150,
    },
    packDate: {
      kind: 'date',
      label: { zh: '灭菌日期', en: 'Sterilised on' },
      nullable: true,
      search: true,
      width: 110,
    },
    validityDays: {
      kind: 'int',
      label: { zh: '有效天数', en: 'Validity (days)' },
      nullable: true,
      form: 'readonly',
      derive: { from: FROM_PACKING, value: (row) => validityDaysOf(row.packMaterial, row.climateControlled) ?? null },
      width: 90,
    },
    expiryDate: {
      kind: 'date',
      label: { zh: '失效日期', en: 'Expires on' },
      nullable: true,
      form: 'readonly',
      search: true,
      sort: true,
      derive: {
        from: FROM_PACKING,
        value: (row) => expiryDateOf(row.packDate, row.packMaterial, row.climateControlled),
      },
      width: 110,
    },
    ownerDept: {
      kind: 'reference',
      label: { zh: '所属机构', en: 'Owner' },
      search: true,
      reference: { to: () => deptResource, label: 'deptName' },
      width: 140,
    },
    remark: remarkField(),
  },
  indexes: [
    { fields: ['tenantId', 'code'], unique: true, message: { zh: '物品编号已存在', en: 'The code exists' } },
    { fields: ['tenantId', 'barCode'], unique: true, message: { zh: '条码已存在', en: 'The bar code exists' } },
  ],
  defaultSort: [{ field: 'code' }],
});

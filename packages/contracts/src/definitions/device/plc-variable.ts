import { defineResource, type FieldDef } from '../../engine/define';
import { remarkField } from '../common-fields';
import { PLC_BYTE_ORDERS, PLC_DATA_TYPES, fieldKeyField, oneOf } from './model-rules';
import { productResource } from './product';

const dataTypeLabel = { zh: '数据类型', en: 'Data type' };
const byteOrderLabel = { zh: '字节序', en: 'Byte order' };

const scalingValue = (zh: string, en: string, extra: Partial<FieldDef> = {}) =>
  ({
    kind: 'decimal',
    label: { zh, en },
    precision: 18,
    scale: 6,
    nullable: true,
    list: false,
    width: 110,
    ...extra,
  }) as const satisfies FieldDef;

const limit = (zh: string, en: string) =>
  ({
    kind: 'decimal',
    label: { zh, en },
    precision: 18,
    scale: 4,
    nullable: true,
    width: 90,
  }) as const satisfies FieldDef;

/**
 * A PLC variable of a product: where a model field sits in the controller (address, register,
 * type) and how its raw value becomes the engineering value (scaling), when it is reported
 * (poll, deadband, strategy) and its alarm limits. `name` is a field key of the product's model.
 */
export const plcVariableResource = defineResource({
  code: 'plcvariable',
  title: { zh: 'PLC变量', en: 'PLC variables' },
  table: 'mes_plc_variable',
  api: '/basic/plcvariable',
  owner: 'tenant',
  dialogWidth: 960,
  menu: {
    group: 'device',
    sort: 3,
    icon: 'database',
    nameEn: 'PLC variables',
    dictionaries: [
      {
        code: 'plc_register_type',
        name: 'PLC寄存器类型',
        entries: [
          ['1', '线圈(0x)', 'Coil (0x)'],
          ['2', '离散输入(1x)', 'Discrete input (1x)'],
          ['3', '输入寄存器(3x)', 'Input register (3x)'],
          ['4', '保持寄存器(4x)', 'Holding register (4x)'],
          ['5', '数据块(DB)', 'Data block (DB)'],
        ],
      },
      { code: 'plc_data_type', name: 'PLC数据类型', entries: PLC_DATA_TYPES.map((t) => [t, t] as const) },
      { code: 'plc_byte_order', name: 'PLC字节序', entries: PLC_BYTE_ORDERS.map((t) => [t, t] as const) },
      {
        code: 'plc_access',
        name: 'PLC读写',
        entries: [
          ['1', '只读', 'Read'],
          ['2', '读写', 'Read / write'],
          ['3', '订阅', 'Subscribe'],
        ],
      },
      {
        code: 'plc_report_strategy',
        name: '上报策略',
        entries: [
          ['1', '变化上报', 'On change'],
          ['2', '周期上报', 'Periodic'],
          ['3', '变化+周期', 'On change + periodic'],
        ],
      },
    ],
  },
  fields: {
    productId: {
      kind: 'reference',
      label: { zh: '产品', en: 'Product' },
      required: true,
      search: true,
      reference: { to: () => productResource, label: 'productName' },
      width: 140,
    },
    name: { ...fieldKeyField({ zh: '变量名', en: 'Name' }), search: true },
    label: { kind: 'string', label: { zh: '变量标签', en: 'Label' }, max: 64, search: true },
    address: {
      kind: 'string',
      label: { zh: '地址', en: 'Address' },
      max: 64,
      required: true,
      pattern: {
        regex: '^[A-Za-z0-9_.,:%-]{1,64}$',
        message: { zh: '地址只能包含字母、数字和 _ . , : % -', en: 'Letters, digits and _ . , : % - only' },
      },
      width: 110,
    },
    registerType: {
      kind: 'int',
      label: { zh: '寄存器类型', en: 'Register type' },
      default: 4,
      range: [1, 5],
      options: { dict: 'plc_register_type' },
      width: 120,
    },
    dataType: {
      kind: 'string',
      label: dataTypeLabel,
      max: 8,
      required: true,
      default: 'FLOAT',
      options: { dict: 'plc_data_type' },
      pattern: oneOf(PLC_DATA_TYPES, dataTypeLabel),
      width: 100,
    },
    length: { kind: 'int', label: { zh: '长度', en: 'Length' }, range: [1, 256], default: 1, list: false },
    byteOrder: {
      kind: 'string',
      label: byteOrderLabel,
      max: 4,
      default: 'ABCD',
      options: { dict: 'plc_byte_order' },
      pattern: oneOf(PLC_BYTE_ORDERS, byteOrderLabel),
      list: false,
    },
    access: {
      kind: 'int',
      label: { zh: '读写', en: 'Access' },
      default: 1,
      range: [1, 3],
      options: { dict: 'plc_access' },
      width: 80,
    },
    multiplier: scalingValue('倍率', 'Multiplier', { default: '1', nullable: false, list: true, range: [-1e9, 1e9] }),
    offset: scalingValue('偏移', 'Offset', { default: '0', nullable: false, range: [-1e9, 1e9] }),
    rawLow: scalingValue('原始下限', 'Raw low'),
    rawHigh: scalingValue('原始上限', 'Raw high'),
    engLow: scalingValue('工程下限', 'Engineering low'),
    engHigh: scalingValue('工程上限', 'Engineering high'),
    decimals: { kind: 'int', label: { zh: '小数位', en: 'Decimals' }, range: [0, 6], default: 2, list: false },
    unit: { kind: 'string', label: { zh: '单位', en: 'Unit' }, max: 16, width: 80 },
    pollInterval: {
      kind: 'int',
      label: { zh: '采集周期(ms)', en: 'Poll interval (ms)' },
      range: [10, 3600000],
      default: 1000,
      width: 110,
    },
    deadband: {
      kind: 'decimal',
      label: { zh: '死区', en: 'Deadband' },
      precision: 18,
      scale: 6,
      default: '0',
      range: [0, 1e9],
      list: false,
    },
    reportStrategy: {
      kind: 'int',
      label: { zh: '上报策略', en: 'Report strategy' },
      default: 1,
      range: [1, 3],
      options: { dict: 'plc_report_strategy' },
      list: false,
    },
    limitHh: limit('高高限', 'HH'),
    limitH: limit('高限', 'H'),
    limitL: limit('低限', 'L'),
    limitLl: limit('低低限', 'LL'),
    limitLevel: {
      kind: 'int',
      label: { zh: '越限级别', en: 'Limit level' },
      default: 2,
      range: [1, 4],
      options: { dict: 'warning_level' },
      list: false,
    },
    remark: remarkField(),
  },
  indexes: [
    {
      fields: ['tenantId', 'productId', 'name'],
      unique: true,
      message: { zh: '该产品已有同名变量', en: 'The product already has a variable of this name' },
    },
  ],
  defaultSort: [{ field: 'name' }],
});

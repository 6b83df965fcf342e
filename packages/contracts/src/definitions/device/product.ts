import { defineChildResource } from '../../engine/children';
import { defineResource } from '../../engine/define';
import type { FieldDef } from '../../engine/define';
import { remarkField, sortField } from '../common-fields';
import {
  ALARM_OPERATORS,
  ALARM_RULE_TYPES,
  FIELD_KEY_PATTERN,
  MODEL_DATA_TYPES,
  PRODUCT_PROTOCOLS,
  fieldKeyField,
  oneOf,
} from './model-rules';
import { enumerationField } from './model-enum';

const productLabel = { zh: '产品', en: 'Product' };
const dataTypeLabel = { zh: '数据类型', en: 'Data type' };
const accessLabel = { zh: '读写', en: 'Access' };
const protocolLabel = { zh: '接入协议', en: 'Protocol' };
const operatorLabel = { zh: '运算符', en: 'Operator' };

/** One field of a product's thing model: what `iot/model-data` shows and ingestion accepts. */
export const productFieldResource = defineChildResource({
  code: 'product_field',
  title: { zh: '物模型字段', en: 'Model fields' },
  table: 'mes_product_field',
  api: '/basic/product-field',
  parent: { field: 'productId', label: productLabel },
  fields: {
    fieldKey: fieldKeyField({ zh: '字段标识', en: 'Field key' }),
    fieldName: { kind: 'string', label: { zh: '字段名称', en: 'Name' }, max: 64, required: true, width: 140 },
    dataType: {
      kind: 'string',
      label: dataTypeLabel,
      max: 16,
      required: true,
      default: 'float',
      options: { dict: 'model_data_type' },
      pattern: oneOf(MODEL_DATA_TYPES, dataTypeLabel),
      width: 110,
    },
    unit: { kind: 'string', label: { zh: '单位', en: 'Unit' }, max: 16, width: 90 },
    precision: { kind: 'int', label: { zh: '精度', en: 'Precision' }, range: [0, 6], default: 2, width: 80 },
    access: {
      kind: 'string',
      label: accessLabel,
      max: 4,
      required: true,
      default: 'r',
      options: { dict: 'model_access' },
      pattern: oneOf(['r', 'rw'], accessLabel),
      width: 100,
    },
    // Names of the values (program 1 → 134℃ 标准): lists, exports and the live page show them,
    // the value itself stays stored and sent as it came.
    enumeration: enumerationField,
  },
});

/** `lethalityKind` of a program: which lethality its cycles are judged by (docs/lethality.md). */
export const LETHALITY_KINDS = ['none', 'A0', 'F0'] as const;
const lethalityLabel = { zh: '致死值', en: 'Lethality' };

/** The model field a profile curve is read from (the usual key by default; empty reads none). */
const profileFieldKey = (zh: string, en: string, usual: string) =>
  ({
    kind: 'string',
    label: { zh, en },
    max: 64,
    default: usual,
    pattern: { ...FIELD_KEY_PATTERN, regex: `^(?:${FIELD_KEY_PATTERN.regex.slice(1, -1)})?$` },
    list: false,
    width: 130,
  }) as const satisfies FieldDef;

const profileFigure = (zh: string, en: string, range: [number, number]) =>
  ({
    kind: 'decimal',
    label: { zh, en },
    precision: 12,
    scale: 2,
    range,
    nullable: true,
    list: false,
    width: 120,
  }) as const satisfies FieldDef;

/** A program a device runs (a disinfection or sterilisation cycle). */
export const productProgramResource = defineChildResource({
  code: 'product_program',
  title: { zh: '程序', en: 'Programs' },
  table: 'mes_product_program',
  api: '/basic/product-program',
  parent: { field: 'productId', label: productLabel },
  fields: {
    programNo: { kind: 'int', label: { zh: '程序号', en: 'Program no.' }, required: true, range: [0, 9999], width: 90 },
    programName: { kind: 'string', label: { zh: '程序名称', en: 'Name' }, max: 64, required: true, width: 140 },
    durationMinutes: {
      kind: 'int',
      label: { zh: '时长(分钟)', en: 'Duration (min)' },
      range: [0, 10000],
      default: 0,
      width: 100,
    },
    targetTemperature: {
      kind: 'decimal',
      label: { zh: '目标温度(℃)', en: 'Target temperature (°C)' },
      precision: 8,
      scale: 2,
      range: [-100, 1000],
      nullable: true,
      width: 120,
    },
    targetConcentration: {
      kind: 'decimal',
      label: { zh: '目标浓度(mg/L)', en: 'Target concentration (mg/L)' },
      precision: 10,
      scale: 2,
      range: [0, 1000000],
      nullable: true,
      width: 130,
    },
    // The validated profile (docs/lethality.md): what each finished cycle is judged against.
    lethalityKind: {
      kind: 'string',
      label: lethalityLabel,
      max: 4,
      required: true,
      default: 'none',
      options: {
        items: [
          { value: 'none', label: { zh: '不计算', en: 'None' } },
          { value: 'A0', label: { zh: 'A0 (湿热消毒)', en: 'A0 (thermal disinfection)' } },
          { value: 'F0', label: { zh: 'F0 (蒸汽灭菌)', en: 'F0 (steam sterilisation)' } },
        ],
      },
      pattern: oneOf(LETHALITY_KINDS, lethalityLabel),
      width: 110,
    },
    temperatureField: profileFieldKey('温度字段', 'Temperature field', 'chamberTemp'),
    plateauMin: profileFigure('平台温度下限(℃)', 'Plateau min (°C)', [-100, 1000]),
    plateauMax: profileFigure('平台温度上限(℃)', 'Plateau max (°C)', [-100, 1000]),
    minHoldSeconds: {
      kind: 'int',
      label: { zh: '最短维持(秒)', en: 'Min hold (s)' },
      range: [0, 86400],
      nullable: true,
      list: false,
      width: 110,
    },
    pressureField: profileFieldKey('压力字段', 'Pressure field', 'chamberPressure'),
    pressureMin: profileFigure('压力下限(kPa)', 'Pressure min (kPa)', [-1000, 10000]),
    pressureMax: profileFigure('压力上限(kPa)', 'Pressure max (kPa)', [-1000, 10000]),
    concentrationField: profileFieldKey('浓度字段', 'Concentration field', 'chlorine'),
    minConcentration: profileFigure('最低浓度(mg/L)', 'Min concentration (mg/L)', [0, 1000000]),
    minLethality: profileFigure('最低A0(秒)/F0(分钟)', 'Min A0 (s) / F0 (min)', [0, 1000000]),
  },
});

/** Rule types that watch a model field (the others watch the device's connection or its cycles). */
const FIELD_RULES = { field: 'ruleType', in: ['threshold', 'rate', 'concentration', 'refill'] } as const;
const ruleTypeLabel = { zh: '规则类型', en: 'Rule type' };

/**
 * An alarm rule of a product (docs/warnings.md): `threshold` — `field operator threshold` held for
 * `durationSeconds`; `rate` — the field changes by more than `threshold` per minute; `concentration`
 * — the field below `threshold`, or below the running program's target concentration when empty;
 * `offline` — the device offline for `durationSeconds`; `cycle` — a cycle ends failed or aborted;
 * `refill` — the field (a tank's level) below its low limit plus `threshold` (the margin): the low
 * limit is the field's PLC L (or LL) limit, or a `<` / `<=` threshold rule of the product on it.
 */
export const productAlarmRuleResource = defineChildResource({
  code: 'product_alarm_rule',
  title: { zh: '告警规则', en: 'Alarm rules' },
  table: 'mes_product_alarm_rule',
  api: '/basic/product-alarm-rule',
  parent: { field: 'productId', label: productLabel },
  fields: {
    ruleType: {
      kind: 'string',
      label: ruleTypeLabel,
      max: 16,
      required: true,
      default: 'threshold',
      options: { dict: 'alarm_rule_type' },
      pattern: oneOf(ALARM_RULE_TYPES, ruleTypeLabel),
      width: 130,
    },
    fieldKey: {
      ...fieldKeyField({ zh: '字段标识', en: 'Field key' }),
      required: false,
      requiredWhen: FIELD_RULES,
      visibleWhen: FIELD_RULES,
    },
    operator: {
      kind: 'string',
      label: operatorLabel,
      max: 2,
      required: true,
      default: '>',
      options: { dict: 'alarm_operator' },
      pattern: oneOf(ALARM_OPERATORS, operatorLabel),
      visibleWhen: { field: 'ruleType', in: ['threshold'] },
      width: 90,
    },
    threshold: {
      kind: 'decimal',
      label: { zh: '阈值', en: 'Threshold' },
      precision: 18,
      scale: 4,
      nullable: true,
      requiredWhen: { field: 'ruleType', in: ['threshold', 'rate', 'refill'] },
      visibleWhen: FIELD_RULES,
      width: 120,
    },
    durationSeconds: {
      kind: 'int',
      label: { zh: '持续(秒)', en: 'Duration (s)' },
      range: [0, 86400],
      default: 0,
      width: 100,
    },
    level: {
      kind: 'int',
      label: { zh: '级别', en: 'Level' },
      required: true,
      default: 2,
      range: [1, 4],
      options: { dict: 'warning_level' },
      width: 100,
    },
  },
});

/**
 * How a product's devices' run state follows their data (docs/devices.md "Run state"): each a
 * field key of the product's thing model, or empty. Ingestion evaluates it per batch
 * (modules/telemetry/run-state.ts); the screens show the current cycle's program, phase and
 * remaining time from the same fields' latest values.
 */
export const RUN_STATE_FIELD_KEYS = ['phaseField', 'faultField', 'programField', 'remainingField'] as const;

const stateFieldKey = (zh: string, en: string) =>
  ({
    kind: 'string',
    label: { zh, en },
    max: 64,
    pattern: FIELD_KEY_PATTERN,
    list: false,
    width: 140,
  }) as const;

const runStateFields = {
  /** Not 0 → the device runs a cycle (消毒中); also the phase the screens show. */
  phaseField: stateFieldKey('运行阶段字段', 'Phase field'),
  /** Not 0 → fault (故障). */
  faultField: stateFieldKey('故障码字段', 'Fault code field'),
  programField: stateFieldKey('程序号字段', 'Program field'),
  /** Seconds left of the running cycle. */
  remainingField: stateFieldKey('剩余时间字段(秒)', 'Remaining time field (s)'),
  /** An unhandled warning of this level or more severe (1 critical … 4) → fault; empty: none does. */
  faultWarningLevel: {
    kind: 'int',
    label: { zh: '故障告警级别', en: 'Fault warning level' },
    range: [1, 4],
    nullable: true,
    default: 1,
    options: { dict: 'warning_level' },
    list: false,
    width: 110,
  },
} as const;

/**
 * A product (device model): its thing model, programs and alarm rules travel with it as child
 * rows (docs/devices.md). The model's field keys are what telemetry carries and what PLC
 * variables map.
 */
export const productResource = defineResource({
  code: 'product',
  title: { zh: '产品管理', en: 'Products' },
  table: 'mes_product',
  api: '/basic/product',
  owner: 'tenant',
  dialogWidth: 1000,
  menu: {
    group: 'device',
    sort: 1,
    icon: 'appstore',
    dictionaries: [
      {
        code: 'product_category',
        name: '产品类别',
        entries: [
          ['1', '水路消毒机', 'Waterline disinfector'],
          ['2', '压力蒸汽灭菌器', 'Steam steriliser'],
          ['3', '低温等离子/环氧乙烷灭菌器', 'Low-temperature plasma / EO steriliser'],
          ['4', '清洗消毒机', 'Washer-disinfector'],
          ['5', '空气消毒机', 'Air disinfector'],
        ],
      },
      {
        code: 'product_protocol',
        name: '接入协议',
        entries: [
          ['mqtt-json', 'MQTT JSON'],
          ['sparkplug-b', 'Sparkplug B'],
        ],
      },
      {
        code: 'model_data_type',
        name: '物模型数据类型',
        entries: [
          ['int', '整数', 'Integer'],
          ['float', '浮点数', 'Float'],
          ['bool', '布尔', 'Boolean'],
          ['string', '字符串', 'String'],
          ['enum', '枚举', 'Enumeration'],
        ],
      },
      {
        code: 'model_access',
        name: '物模型读写',
        entries: [
          ['r', '只读', 'Read'],
          ['rw', '读写', 'Read / write'],
        ],
      },
      {
        code: 'alarm_operator',
        name: '告警运算符',
        entries: ALARM_OPERATORS.map((op) => [op, op] as const),
      },
    ],
  },
  fields: {
    productCode: {
      kind: 'string',
      label: { zh: '产品编号', en: 'Code' },
      max: 64,
      required: true,
      search: true,
      sort: true,
      pattern: {
        regex: '^[A-Za-z0-9_-]{1,64}$',
        message: { zh: '产品编号只能包含字母、数字、_ 和 -', en: 'Letters, digits, _ and - only' },
      },
    },
    productName: { kind: 'string', label: { zh: '产品名称', en: 'Name' }, max: 64, required: true, search: true },
    category: {
      kind: 'int',
      label: { zh: '产品类别', en: 'Category' },
      required: true,
      default: 1,
      range: [1, 5],
      options: { dict: 'product_category' },
      search: true,
      width: 170,
    },
    protocol: {
      kind: 'string',
      label: protocolLabel,
      max: 16,
      required: true,
      default: 'mqtt-json',
      options: { dict: 'product_protocol' },
      pattern: oneOf(PRODUCT_PROTOCOLS, protocolLabel),
      width: 120,
    },
    inactivitySeconds: {
      kind: 'int',
      label: { zh: '离线超时(秒)', en: 'Inactivity timeout (s)' },
      default: 600,
      range: [30, 86400],
      width: 120,
    },
    ...runStateFields,
    sort: sortField(),
    remark: remarkField(),
  },
  children: {
    fields: {
      resource: () => productFieldResource,
      label: { zh: '物模型', en: 'Model fields' },
      unique: {
        fields: ['fieldKey'],
        message: { zh: '字段标识重复,同一产品内字段标识唯一', en: 'A field key appears once per product' },
      },
    },
    programs: {
      resource: () => productProgramResource,
      label: { zh: '程序', en: 'Programs' },
      unique: {
        fields: ['programNo'],
        message: { zh: '程序号重复', en: 'A program number appears once per product' },
      },
    },
    alarmRules: {
      resource: () => productAlarmRuleResource,
      label: { zh: '告警规则', en: 'Alarm rules' },
    },
  },
  indexes: [
    {
      fields: ['tenantId', 'productCode'],
      unique: true,
      message: { zh: '产品编号已存在', en: 'The product code exists' },
    },
  ],
  defaultSort: [{ field: 'sort' }],
});

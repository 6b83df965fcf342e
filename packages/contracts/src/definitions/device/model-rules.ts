import type { FieldDef, LocalText, PatternRule } from '../../engine/define';

/**
 * A model field key as devices send it and PLC variables name it: a JSON key and a Sparkplug
 * metric name both take it unquoted.
 */
export const FIELD_KEY_PATTERN: PatternRule = {
  regex: '^[A-Za-z][A-Za-z0-9_]{0,63}$',
  message: {
    zh: '字段标识以字母开头,只能包含字母、数字和 _,最长 64 个字符',
    en: 'A field key starts with a letter and holds letters, digits and _ (64 at most)',
  },
};

/** A field key column (product model field, alarm rule, PLC variable name). */
export const fieldKeyField = (label: FieldDef['label']) =>
  ({
    kind: 'string',
    label,
    max: 64,
    required: true,
    pattern: FIELD_KEY_PATTERN,
    width: 140,
  }) as const satisfies FieldDef;

/** Values of a text field kept to a fixed list (a dictionary labels them; this checks them). */
export const oneOf = (values: readonly string[], label: FieldDef['label']): PatternRule => ({
  regex: `^(?:${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`,
  message: { zh: `${label.zh}应为 ${values.join(' / ')}`, en: `${label.en} must be one of ${values.join(', ')}` },
});

/** The thing model's data types (DeviceDirectory's `ModelDataType`). */
export const MODEL_DATA_TYPES = ['int', 'float', 'bool', 'string', 'enum'] as const;
export const PRODUCT_PROTOCOLS = ['mqtt-json', 'sparkplug-b'] as const;
export const ALARM_OPERATORS = ['>', '>=', '<', '<=', '==', '!='] as const;
export const PLC_DATA_TYPES = ['BOOL', 'INT16', 'UINT16', 'INT32', 'FLOAT', 'DOUBLE', 'STRING'] as const;
export const PLC_BYTE_ORDERS = ['ABCD', 'DCBA', 'BADC', 'CDAB'] as const;

/**
 * What raises a warning (a product alarm rule's `ruleType`, a warning's `warningType`; dictionary
 * alarm_rule_type): a threshold held for a duration, a rate of change per minute, the device going
 * offline, a failed or aborted cycle, disinfectant below the minimum, a PLC variable's HH/H/L/LL limit,
 * and `refill`: a tank's level within a margin (the rule's threshold) above its low limit — a
 * reminder to refill before the low-level warning (docs/maintenance.md).
 */
export const ALARM_RULE_TYPES = ['threshold', 'rate', 'offline', 'cycle', 'concentration', 'limit', 'refill'] as const;
export type AlarmRuleType = (typeof ALARM_RULE_TYPES)[number];
export const ALARM_RULE_TYPE_NAMES: Record<AlarmRuleType, LocalText> = {
  threshold: { zh: '阈值越限', en: 'Threshold' },
  rate: { zh: '变化率越限', en: 'Rate of change' },
  offline: { zh: '设备离线', en: 'Offline' },
  cycle: { zh: '周期失败/中止', en: 'Cycle failed / aborted' },
  concentration: { zh: '消毒液浓度不足', en: 'Low concentration' },
  limit: { zh: '变量越限', en: 'Variable limit' },
  refill: { zh: '液位补充提醒', en: 'Refill reminder' },
};

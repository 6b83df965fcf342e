/** The device area's own refusals (400s), in the console's language. */
export const DeviceMessages = {
  runStateFieldNotInModel: (label: { zh: string; en: string }, key: string) => ({
    zh: `${label.zh}: 字段标识 ${key} 不是本产品物模型中的字段`,
    en: `${label.en}: the field key ${key} is not in this product's thing model`,
  }),
  alarmFieldNotInModel: (row: number, key: string) => ({
    zh: `「告警规则」第 ${row} 行: 字段标识 ${key} 不是本产品物模型中的字段`,
    en: `Alarm rules, row ${row}: the field key ${key} is not in this product's thing model`,
  }),
  variableNotInModel: (name: string) => ({
    zh: `变量名 ${name} 不是所选产品物模型中的字段,请先在产品的物模型中添加该字段`,
    en: `The variable ${name} is not a field of the chosen product's thing model: add the field to the product's thing model first`,
  }),
  fieldMapped: (key: string) => ({
    zh: `物模型字段 ${key} 正被 PLC 变量使用,请先删除或改名该变量`,
    en: `The thing model field ${key} is used by a PLC variable: delete or rename that variable first`,
  }),
  limitsOrder: {
    zh: '越限值应满足 低低限 ≤ 低限 ≤ 高限 ≤ 高高限',
    en: 'The limits must satisfy low-low ≤ low ≤ high ≤ high-high',
  },
  partialRange: {
    zh: '量程换算需同时填写原始下限、原始上限、工程下限和工程上限,或全部留空',
    en: 'Scaling needs raw low, raw high, engineering low and engineering high together, or none of them',
  },
  flatRange: { zh: '原始下限与原始上限不能相等', en: 'Raw low and raw high must differ' },
  secretIssued: {
    zh: '该设备已有 MQTT 密钥,如需更换请使用「密钥」按钮重新生成',
    en: 'This device already has an MQTT secret: use the Secret button to issue a new one',
  },
} as const;

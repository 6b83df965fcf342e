/** The device area's own refusals (400s), in the console's language. */
export const DeviceMessages = {
  alarmFieldNotInModel: (row: number, key: string) =>
    `「告警规则」第 ${row} 行: 字段标识 ${key} 不是本产品物模型中的字段`,
  variableNotInModel: (name: string) => `变量名 ${name} 不是所选产品物模型中的字段,请先在产品的物模型中添加该字段`,
  fieldMapped: (key: string) => `物模型字段 ${key} 正被 PLC 变量使用,请先删除或改名该变量`,
  limitsOrder: '越限值应满足 低低限 ≤ 低限 ≤ 高限 ≤ 高高限',
  partialRange: '量程换算需同时填写原始下限、原始上限、工程下限和工程上限,或全部留空',
  flatRange: '原始下限与原始上限不能相等',
  secretIssued: '该设备已有 MQTT 密钥,如需更换请使用「密钥」按钮重新生成',
} as const;

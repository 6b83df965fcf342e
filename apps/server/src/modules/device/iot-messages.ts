/**
 * Refusals of the IoT calls (model-data, model-list), in the console's language like every
 * server message (contracts `Messages`); docs/devices.md "IoT calls" lists them with English.
 */
export const IotMessages = {
  deviceNotFound: (code: string) => `设备 ${code} 不存在或无权访问`,
  fieldNotInModel: (field: string, code: string) => `字段 ${field} 不是设备 ${code} 所属产品物模型中的字段`,
  textField: (field: string) => `字段 ${field} 是文本类型,无法绘制曲线,请在最新数据中查看`,
  badTime: (name: string) => `请求参数 ${name} 不正确: 应为 yyyy-MM-dd HH:mm:ss 格式的时间或毫秒时间戳`,
  startAfterEnd: '开始时间不能晚于结束时间',
  rangeTooWide: (days: number) => `查询时间范围不能超过 ${days} 天,请缩小范围`,
  badMaxPoints: (min: number, max: number) => `请求参数 maxPoints 不正确: 应为 ${min} 到 ${max} 之间的整数`,
  badDeviceCode: '请求参数 deviceCode 不正确: 设备编号只能包含字母、数字、_ 和 -',
  badField: '请求参数 field 不正确: 应为物模型字段标识(字母开头,字母、数字和 _)',
} as const;

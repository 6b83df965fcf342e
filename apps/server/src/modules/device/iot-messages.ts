/**
 * Refusals of the IoT calls (model-data, model-list), in the console's language like every
 * server message (contracts `Messages`); docs/devices.md "IoT calls" lists them with English.
 */
export const IotMessages = {
  deviceNotFound: (code: string) => ({
    zh: `设备 ${code} 不存在或无权访问`,
    en: `The device ${code} does not exist or you may not see it`,
  }),
  fieldNotInModel: (field: string, code: string) => ({
    zh: `字段 ${field} 不是设备 ${code} 所属产品物模型中的字段`,
    en: `The field ${field} is not in the thing model of the product of device ${code}`,
  }),
  textField: (field: string) => ({
    zh: `字段 ${field} 是文本类型,无法绘制曲线,请在最新数据中查看`,
    en: `The field ${field} is text and cannot be charted: see it in the latest data`,
  }),
  badTime: (name: string) => ({
    zh: `请求参数 ${name} 不正确: 应为 yyyy-MM-dd HH:mm:ss 格式的时间或毫秒时间戳`,
    en: `The parameter ${name} is invalid: must be a time as yyyy-MM-dd HH:mm:ss or milliseconds since the epoch`,
  }),
  startAfterEnd: { zh: '开始时间不能晚于结束时间', en: 'The start time must not be after the end time' },
  rangeTooWide: (days: number) => ({
    zh: `查询时间范围不能超过 ${days} 天,请缩小范围`,
    en: `The time range must not exceed ${days} days: narrow it`,
  }),
  badMaxPoints: (min: number, max: number) => ({
    zh: `请求参数 maxPoints 不正确: 应为 ${min} 到 ${max} 之间的整数`,
    en: `The parameter maxPoints is invalid: must be an integer from ${min} to ${max}`,
  }),
  badDeviceCode: {
    zh: '请求参数 deviceCode 不正确: 设备编号只能包含字母、数字、_ 和 -',
    en: 'The parameter deviceCode is invalid: a device code has only letters, digits, _ and -',
  },
  badField: {
    zh: '请求参数 field 不正确: 应为物模型字段标识(字母开头,字母、数字和 _)',
    en: 'The parameter field is invalid: must be a thing model field key (a letter, then letters, digits and _)',
  },
} as const;

/** The maintenance area's own refusals (400s) and the text of its notices, in both languages. */
export const MaintenanceMessages = {
  noInterval: {
    zh: '请填写间隔周期数或间隔天数(至少一项)',
    en: 'Give the interval in cycles or in days (at least one)',
  },
  noticeCyclesTooLarge: {
    zh: '提前提醒周期数应小于间隔周期数',
    en: 'The notice in cycles must be less than the interval in cycles',
  },
  noticeDaysTooLarge: {
    zh: '提前提醒天数应小于间隔天数',
    en: 'The notice in days must be less than the interval in days',
  },
  unknownDevice: {
    zh: '所选设备不存在或不属于本租户',
    en: 'The chosen device does not exist or is not of this tenant',
  },
  planNotForProduct: {
    zh: '所选保养计划不属于该设备的产品',
    en: "The chosen plan is not a plan of the device's product",
  },
  deviceFixed: {
    zh: '保养记录的设备不能修改,请删除后重新登记',
    en: "A record's device cannot change: delete the record and add a new one",
  },
  resultNeeded: { zh: '填写结束时间时请同时填写保养结果', en: 'A record with an end time needs its result' },
  endNeeded: { zh: '填写保养结果时请同时填写结束时间', en: 'A record with a result needs its end time' },
  endBeforeStart: { zh: '结束时间不能早于开始时间', en: 'The end time cannot be before the start time' },
  alreadyOpen: (deviceCode: string) => ({
    zh: `设备 ${deviceCode} 已有进行中的保养记录,请先完成该记录`,
    en: `Device ${deviceCode} has a maintenance in progress: complete that record first`,
  }),
  checkWithoutResult: (row: number, name: string) => ({
    zh: `「检查结果」第 ${row} 行: 检查项 ${name} 未填写结果,完成保养前请填写每项检查结果`,
    en: `Checks, row ${row}: the check ${name} has no result; give every check's result before completing`,
  }),
  noticeTitle: (deviceName: string, deviceCode: string, planName: string, overdue: boolean) =>
    overdue
      ? `设备 ${deviceName}(${deviceCode}) 保养已逾期: ${planName}`
      : `设备 ${deviceName}(${deviceCode}) 即将到期保养: ${planName}`,
} as const;

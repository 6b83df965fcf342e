/** Texts of the report files screen. */
export const reportFiles = {
  generate: '生成报表',
  template: '报表模板',
  format: '格式',
  range: '日期范围',
  ok: '生成',
  queued: '已加入生成队列',
  download: '下载',
  pickTemplate: '请选择报表模板',
};

/** Texts of the log screens (field labels come from the log definitions) and the welcome page's sign-in figures. */
export const log = {
  detailTitle: '{{title}}详情',
  tenant: '租户',
  changes: '变更内容',
  field: '字段',
  before: '修改前',
  after: '修改后',
  noChanges: '无字段变更',
  empty: '(空)',
  signIns: '登录统计',
  today: '今日登录',
  todaySuccess: '成功',
  todayFail: '失败',
  last7Days: '近 7 天',
  times: '{{count}} 次',
  takenAt: '统计于 {{time}}',
  refresh: '刷新',
};

/** Texts of live push: the connection state and the notification popover. */
export const live = {
  loadFailed: '加载失败',
  retry: '重试',
  unreadMark: '未读',
  activeWarnings: '{{count}} 条未处理告警',
  unreadNotices: '{{count}} 条未读通知',
  viewAllNotices: '查看全部通知',
  viewAllWarnings: '查看全部告警',
  level_1: '紧急',
  level_2: '重要',
  level_3: '次要',
  level_4: '提示',
};

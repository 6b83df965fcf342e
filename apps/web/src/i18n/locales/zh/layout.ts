/** Strings of the layout area. */
export const layout = {
  emptyMenu: '没有发现菜单',
  logout: '退出登录',
  logoutConfirm: '是否退出系统, 是否继续?',
  lang_zh: '中文',
  lang_en: 'English',
  tenant: '租户',
  account: '账号',
  roles: '角色',
  menu: '菜单',
  collapseMenu: '收起菜单',
  expandMenu: '展开菜单',
  language: '语言',
  userMenu: '用户菜单',
};

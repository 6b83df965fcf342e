import type { layout as zh } from '../zh/layout';

export const layout: typeof zh = {
  emptyMenu: 'No menu found',
  logout: 'Sign out',
  logoutConfirm: 'Sign out of the console?',
  lang_zh: '中文',
  lang_en: 'English',
  tenant: 'Tenant',
  account: 'Account',
  roles: 'Roles',
  menu: 'Menu',
  collapseMenu: 'Collapse the menu',
  expandMenu: 'Expand the menu',
  language: 'Language',
  userMenu: 'User menu',
};

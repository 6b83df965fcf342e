/** Strings of the lock area. */
export const lock = {
  button: '锁屏',
  dialogTitle: '设置锁屏密码',
  password: '锁屏密码',
  passwordRequired: '锁屏密码不能为空',
  passwordPlaceholder: '请输入锁屏密码',
  locked: '屏幕已锁定',
  unlock: '解锁',
  unlockPlaceholder: '请输入锁屏密码解锁',
  wrongPassword: '锁屏密码错误,请重新输入',
  logout: '退出登录',
  logoutConfirm: '是否退出系统, 是否继续?',
};

/** Strings of the registration dialog. */
export const register = {
  link: '注册账号',
  title: '账号注册',
  tenantId: '租户编号',
  name: '用户姓名',
  account: '账号名称',
  password: '密码',
  password2: '确认密码',
  tenantRequired: '请先输入租户编号',
  accountRequired: '请先输入账号名称',
  passwordRequired: '请先输入密码',
  passwordMismatch: '两次密码输入不一致',
  submit: '提交',
  submitFailed: '提交失败',
  doneTitle: '注册提示',
  doneContent: '注册申请已提交,请耐心等待管理员通过!',
};

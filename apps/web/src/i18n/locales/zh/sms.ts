/** 短信配置 screen (/resource/sms). */
export const sms = {
  sendTest: '发送测试',
  sendTitle: '发送测试短信',
  code: '资源编号',
  phones: '手机号',
  phonesPlaceholder: '多个手机号用英文逗号分隔',
  phonesRequired: '请输入手机号',
  phonesInvalid: '手机号格式不正确: {{phone}}',
  params: '模板参数',
  paramsHelp: 'JSON 对象,键为模板变量名,例如 {"code":"1234"}',
  paramsInvalid: '模板参数应为 JSON 对象',
  notEnabledHint: '该配置未启用,请先启用再发送',
};

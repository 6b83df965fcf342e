/** Messages of SMS sending and phone sign-in (envelope `msg` or the token endpoint's `error_description`). */
export const SmsMessages = {
  // phone sign-in (spec section 5: phone must not be empty, be 11 digits, match 1 + 10 digits)
  phoneRequired: '手机号不能为空',
  phoneLength: '手机号长度不为11位',
  phoneFormat: '手机号格式不正确',
  codeRequired: '请输入验证码',
  codeInvalid: '验证码不正确或已过期',
  codeTooManyTries: '验证码错误次数过多,请重新获取',
  cooldown: '验证码发送过于频繁,请60秒后再试',
  ipLimit: '验证码发送次数过多,请稍后再试',
  codeSent: '验证码已发送',
  notConfigured: '短信服务未配置,请联系管理员',
  noAccount: '该手机号未绑定账号',
  severalAccounts: '该手机号绑定了多个账号,请使用账号密码登录',
  pending: '账号正在等待管理员审核,请审核通过后再登录',
  // configurations and send-message
  configNotFound: (code: string) => `短信配置不存在: ${code}`,
  configDisabled: (code: string) => `短信配置未启用: ${code}`,
  unknownProvider: (category: unknown) => `不支持的短信服务商: ${String(category)}`,
  missingSettings: (provider: string, labels: string[]) => `${provider}短信需要填写${labels.join('、')}`,
  secretUnreadable: '短信配置的 SecretKey 无法解密,请重新填写后保存',
  phonesRequired: '请输入接收短信的手机号',
  phoneInvalid: (phone: string) => `手机号格式不正确: ${phone}`,
  tooManyPhones: (max: number) => `一次最多发送 ${max} 个手机号`,
  paramsInvalid: '模板参数应为 JSON 对象,例如 {"code":"1234"}',
  paramValueInvalid: (name: string) => `模板参数 ${name} 的值应为文本或数字`,
  sent: '短信发送成功',
  // provider replies
  failed: (provider: string, reason: string) => `${provider}短信发送失败: ${reason}`,
  timeout: (ms: number) => `服务商接口超时(${ms / 1000}秒)`,
  unreachable: (reason: string) => `无法连接服务商接口(${reason})`,
  badReply: (status: number) => `服务商接口返回了无法识别的应答(HTTP ${status})`,
} as const;

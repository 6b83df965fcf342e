import type { BilingualText } from '@mes/contracts';

/** Messages of SMS sending and phone sign-in (envelope `msg` or the token endpoint's `error_description`). */
export const SmsMessages = {
  // phone sign-in (spec section 5: phone must not be empty, be 11 digits, match 1 + 10 digits)
  phoneRequired: { zh: '手机号不能为空', en: 'The phone number must not be empty' },
  phoneLength: { zh: '手机号长度不为11位', en: 'The phone number must have 11 digits' },
  phoneFormat: { zh: '手机号格式不正确', en: 'The phone number is malformed' },
  codeRequired: { zh: '请输入验证码', en: 'Please enter the verification code' },
  codeInvalid: { zh: '验证码不正确或已过期', en: 'The verification code is wrong or has expired' },
  codeTooManyTries: { zh: '验证码错误次数过多,请重新获取', en: 'Too many wrong verification codes: request a new one' },
  cooldown: {
    zh: '验证码发送过于频繁,请60秒后再试',
    en: 'Verification codes are sent at most once a minute: try again in 60 seconds',
  },
  ipLimit: { zh: '验证码发送次数过多,请稍后再试', en: 'Too many verification codes requested: try again later' },
  codeSent: { zh: '验证码已发送', en: 'Verification code sent' },
  notConfigured: { zh: '短信服务未配置,请联系管理员', en: 'SMS is not configured: please contact the administrator' },
  noAccount: { zh: '该手机号未绑定账号', en: 'No account has this phone number' },
  severalAccounts: {
    zh: '该手机号绑定了多个账号,请使用账号密码登录',
    en: 'Several accounts have this phone number: sign in with account and password',
  },
  pending: {
    zh: '账号正在等待管理员审核,请审核通过后再登录',
    en: 'The account is awaiting approval by an administrator: sign in once it is approved',
  },
  // configurations and send-message
  configNotFound: (code: string) => ({
    zh: `短信配置不存在: ${code}`,
    en: `The SMS configuration does not exist: ${code}`,
  }),
  configDisabled: (code: string) => ({
    zh: `短信配置未启用: ${code}`,
    en: `The SMS configuration is not enabled: ${code}`,
  }),
  unknownProvider: (category: unknown) => ({
    zh: `不支持的短信服务商: ${String(category)}`,
    en: `Unsupported SMS provider: ${String(category)}`,
  }),
  missingSettings: (provider: BilingualText, labels: BilingualText[]) => ({
    zh: `${provider.zh}短信需要填写${labels.map((l) => l.zh).join('、')}`,
    en: `${provider.en} SMS needs ${labels.map((l) => l.en).join(', ')}`,
  }),
  secretUnreadable: {
    zh: '短信配置的 SecretKey 无法解密,请重新填写后保存',
    en: 'The SecretKey of the SMS configuration cannot be decrypted: enter it again and save',
  },
  phonesRequired: { zh: '请输入接收短信的手机号', en: 'Please enter the phone numbers to send to' },
  phoneInvalid: (phone: string) => ({
    zh: `手机号格式不正确: ${phone}`,
    en: `The phone number is malformed: ${phone}`,
  }),
  tooManyPhones: (max: number) => ({
    zh: `一次最多发送 ${max} 个手机号`,
    en: `At most ${max} phone numbers at a time`,
  }),
  paramsInvalid: {
    zh: '模板参数应为 JSON 对象,例如 {"code":"1234"}',
    en: 'Template parameters must be a JSON object, e.g. {"code":"1234"}',
  },
  paramValueInvalid: (name: string) => ({
    zh: `模板参数 ${name} 的值应为文本或数字`,
    en: `The value of template parameter ${name} must be text or a number`,
  }),
  sent: { zh: '短信发送成功', en: 'SMS sent' },
  // provider replies
  failed: (provider: BilingualText, reason: BilingualText) => ({
    zh: `${provider.zh}短信发送失败: ${reason.zh}`,
    en: `${provider.en} SMS could not be sent: ${reason.en}`,
  }),
  timeout: (ms: number) => ({
    zh: `服务商接口超时(${ms / 1000}秒)`,
    en: `the provider did not answer within ${ms / 1000} seconds`,
  }),
  unreachable: (reason: string) => ({
    zh: `无法连接服务商接口(${reason})`,
    en: `the provider cannot be reached (${reason})`,
  }),
  reasonHidden: {
    zh: '服务商返回的错误信息含有密钥内容,已隐藏,请检查 SecretKey 是否正确',
    en: `The provider's error message contained key material and is hidden: check the SecretKey`,
  },
  secretForNewEndpoint: {
    zh: '服务地址已修改,请重新输入 SecretKey',
    en: 'The service URL has changed: enter the SecretKey again',
  },
  badReply: (status: number) => ({
    zh: `服务商接口返回了无法识别的应答(HTTP ${status})`,
    en: `the provider gave an unrecognised reply (HTTP ${status})`,
  }),
} as const;

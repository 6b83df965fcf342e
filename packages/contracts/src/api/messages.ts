/**
 * Server messages that reach the UI. Chinese first, as the BladeX clients expect them verbatim
 * (the web app may translate them by key for English users).
 */
export const Messages = {
  success: '操作成功',
  badRequest: '请求参数错误',
  missingParam: (name: string) => `缺少必要的请求参数: ${name}`,
  invalidParam: (name: string, why: string) => `请求参数 ${name} 不正确: ${why}`,
  unknownFilter: (name: string) => `不支持的查询条件: ${name}`,
  unknownSort: (name: string) => `不支持的排序字段: ${name}`,
  unauthorized: '请求未授权',
  forbidden: '请求被拒绝',
  notFound: '请求的资源不存在',
  methodNotAllowed: '请求方法不支持',
  unsupportedMediaType: '不支持的请求内容类型',
  payloadTooLarge: '请求内容过大',
  tooManyRequests: '请求过于频繁,请稍后再试',
  internalError: '服务器异常,请联系管理员',
  notReady: '服务正在启动,请稍候',
  /** The generic resource routes (spec section 8). */
  added: '新增成功',
  updated: '更新成功',
  removed: '删除成功',
  enabled: '启用成功',
  rowNotFound: '数据不存在或无权访问',
  selectAtLeastOne: '请选择至少一条数据',
  hasChildren: '请先删除子节点',
  duplicate: '数据已存在',
  exportTooLarge: (max: number) => `导出数据超过 ${max} 条,请缩小查询范围`,
  /** Fair shares (docs/operations.md): a user's or tenant's limit reached; nothing was started. */
  liveStreamsAtLimit: (max: number) => `您已打开 ${max} 个实时推送(上限),请关闭其他页面后重试`,
  exportsAtLimit: (max: number) => `本租户已有 ${max} 个导出正在进行(上限),请待其完成后再试`,
  reportsAtLimit: (max: number) => `本租户已有 ${max} 个报表在排队或生成中(上限),请待其完成后再试`,
} as const;

/**
 * Why a parameter was refused, as the `why` of {@link Messages.invalidParam}
 * (`请求参数 size 不正确: 应为 1 到 1000 之间的整数`).
 */
export const InputMessages = {
  nulChar: '不能包含空字符(\\u0000)',
  brokenChar: '含有无法保存的字符(不成对的 UTF-16 代理项)',
  tooDeep: '嵌套层级过深',
  oneValue: '只能有一个值',
  text: '应为文本',
  number: '应为数字',
  id: '应为编号(不超过 9223372036854775807 的非负整数)',
  ids: '应为逗号分隔的编号(每个不超过 9223372036854775807)',
  intBetween: (min: number, max: number) => `应为 ${min} 到 ${max} 之间的整数`,
  tooLong: (max: number) => `最长 ${max} 个字符`,
} as const;

/** A message in both languages of the console; the server answers in the caller's. */
export interface BilingualText {
  zh: string;
  en: string;
}

/** {@link Messages} in English, key for key, for callers that ask for English (`Accept-Language`). */
export const MessagesEn = {
  success: 'Done',
  badRequest: 'Bad request',
  missingParam: (name: string) => `The parameter ${name} is required`,
  invalidParam: (name: string, why: string) => `The parameter ${name} is invalid: ${why}`,
  unknownFilter: (name: string) => `Unsupported filter: ${name}`,
  unknownSort: (name: string) => `Unsupported sort field: ${name}`,
  unauthorized: 'Not signed in, or the session has ended',
  forbidden: 'You may not do this',
  notFound: 'Not found',
  methodNotAllowed: 'Method not allowed',
  unsupportedMediaType: 'Unsupported content type',
  payloadTooLarge: 'The request is too large',
  tooManyRequests: 'Too many requests, please try again later',
  internalError: 'Server error, please contact the administrator',
  notReady: 'The service is starting, please wait',
  added: 'Added',
  updated: 'Saved',
  removed: 'Deleted',
  enabled: 'Enabled',
  rowNotFound: 'The row does not exist or you may not see it',
  selectAtLeastOne: 'Select at least one row',
  hasChildren: 'Delete the child rows first',
  duplicate: 'The row already exists',
  exportTooLarge: (max: number) => `More than ${max} rows to export: narrow the search`,
  liveStreamsAtLimit: (max: number) =>
    `You already have ${max} live streams open (the limit): close another tab and try again`,
  exportsAtLimit: (max: number) =>
    `Your tenant already has ${max} exports under way (the limit): try again when one has finished`,
  reportsAtLimit: (max: number) =>
    `Your tenant already has ${max} reports queued or being generated (the limit): try again when one has finished`,
} as const satisfies {
  [K in keyof typeof Messages]: (typeof Messages)[K] extends string ? string : (typeof Messages)[K];
};

/** {@link InputMessages} in English, key for key. */
export const InputMessagesEn = {
  nulChar: 'must not contain a null character (\\u0000)',
  brokenChar: 'holds a character that cannot be stored (an unpaired UTF-16 surrogate)',
  tooDeep: 'is nested too deeply',
  oneValue: 'must have one value',
  text: 'must be text',
  number: 'must be a number',
  id: 'must be an id (a non-negative integer up to 9223372036854775807)',
  ids: 'must be comma-separated ids (each up to 9223372036854775807)',
  intBetween: (min: number, max: number) => `must be an integer from ${min} to ${max}`,
  tooLong: (max: number) => `at most ${max} characters`,
} as const satisfies {
  [K in keyof typeof InputMessages]: (typeof InputMessages)[K] extends string ? string : (typeof InputMessages)[K];
};

/** Why a parameter was refused, in both languages (`InputMessages` and `InputMessagesEn`). */
export const inputWhy = <K extends keyof typeof InputMessages>(
  key: K,
  ...args: (typeof InputMessages)[K] extends (...a: infer A) => string ? A : []
): BilingualText => {
  const zh = InputMessages[key] as string | ((...a: unknown[]) => string);
  const en = InputMessagesEn[key] as string | ((...a: unknown[]) => string);
  return typeof zh === 'string'
    ? { zh, en: en as string }
    : { zh: zh(...args), en: (en as (...a: unknown[]) => string)(...args) };
};

/** A {@link Messages} entry in both languages. */
export const bilingual = <K extends keyof typeof Messages>(
  key: K,
  ...args: (typeof Messages)[K] extends (...a: infer A) => string ? A : []
): BilingualText => {
  const zh = Messages[key] as string | ((...a: unknown[]) => string);
  const en = MessagesEn[key] as string | ((...a: unknown[]) => string);
  return typeof zh === 'string'
    ? { zh, en: en as string }
    : { zh: zh(...args), en: (en as (...a: unknown[]) => string)(...args) };
};

/** `请求参数 x 不正确: …` in both languages, the reason given in both. */
export const invalidParamText = (name: string, why: BilingualText): BilingualText => ({
  zh: Messages.invalidParam(name, why.zh),
  en: MessagesEn.invalidParam(name, why.en),
});

/** Messages of the OAuth token endpoint, returned as `error_description`. */
export const AuthMessages = {
  badCredentials: '用户名或密码不正确',
  badCaptcha: '验证码不正确',
  tenantExpired: '租户授权已过期,请联系管理员',
  noTenant: '未获得用户的租户信息',
  noRole: '未获得用户的角色信息',
  accountDisabled: '账号已被禁用,请联系管理员',
  unknownClient: '客户端认证失败',
  grantNotAllowed: '客户端不支持该授权类型',
  unsupportedGrant: '不支持的授权类型',
  invalidRefreshToken: '刷新令牌无效或已过期',
  missingUsername: '请输入账号',
  missingPassword: '请输入密码',
  notConfigured: '该登录方式尚未配置',
} as const;

/** {@link AuthMessages} in English, key for key (the token endpoint answers in the caller's language). */
export const AuthMessagesEn = {
  badCredentials: 'Wrong user name or password',
  badCaptcha: 'Wrong captcha',
  tenantExpired: "The tenant's licence has expired, please contact the administrator",
  noTenant: "The user's tenant could not be found",
  noRole: 'The user has no role',
  accountDisabled: 'The account is disabled, please contact the administrator',
  unknownClient: 'Client authentication failed',
  grantNotAllowed: 'The client may not use this grant type',
  unsupportedGrant: 'Unsupported grant type',
  invalidRefreshToken: 'The refresh token is invalid or has expired',
  missingUsername: 'Please enter the account',
  missingPassword: 'Please enter the password',
  notConfigured: 'This sign-in method is not configured',
} as const satisfies { [K in keyof typeof AuthMessages]: string };

/** A lookup of one entry in both languages, from a table of Chinese texts and its English twin. */
export const textPairs =
  <K extends string>(zh: Record<K, string>, en: Record<K, string>) =>
  (key: K): BilingualText => ({ zh: zh[key], en: en[key] });

/** An {@link AuthMessages} entry in both languages. */
export const authText = textPairs(AuthMessages, AuthMessagesEn);

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

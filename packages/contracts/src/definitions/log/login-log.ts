import { defineResource } from '../../engine/define';
import { createTimeField, LOG_OPERATIONS, logIndexes, logSeries } from './log-fields';

/** `success` of a sign-in attempt. */
export const SignInResult = { failed: 0, succeeded: 1 } as const;

/**
 * Every sign-in attempt, successful or not: which account tried, with which grant, from where,
 * and why it failed. Token refreshes are not sign-ins and are not recorded.
 */
export const loginLogResource = defineResource({
  code: 'log_login',
  title: { zh: '登录日志', en: 'Sign-in log' },
  table: 'blade_log_login',
  api: '/blade-log/login',
  menu: { group: 'monitor', sort: 4, icon: 'login', path: '/monitor/log/login', nameEn: 'Sign-in logs' },
  owner: 'tenant',
  platformSeesAllTenants: true,
  audit: false,
  operations: LOG_OPERATIONS,
  fields: {
    account: {
      kind: 'string',
      label: { zh: '账号', en: 'Account' },
      max: 64,
      search: true,
      sort: true,
      width: 130,
    },
    userId: { kind: 'id', label: { zh: '用户ID', en: 'User id' }, list: false },
    grantType: {
      kind: 'string',
      label: { zh: '登录方式', en: 'Method' },
      max: 32,
      search: true,
      width: 110,
      options: {
        items: [
          { value: 'password', label: { zh: '账号密码', en: 'Password' } },
          { value: 'captcha', label: { zh: '验证码', en: 'Captcha' } },
          { value: 'sms', label: { zh: '短信', en: 'SMS' } },
          { value: 'social', label: { zh: '第三方', en: 'Social' } },
          { value: 'qr', label: { zh: '扫码', en: 'QR code' } },
        ],
      },
    },
    success: {
      kind: 'int',
      label: { zh: '结果', en: 'Result' },
      search: true,
      width: 90,
      options: {
        items: [
          { value: SignInResult.succeeded, label: { zh: '成功', en: 'Succeeded' } },
          { value: SignInResult.failed, label: { zh: '失败', en: 'Failed' } },
        ],
      },
    },
    message: { kind: 'string', label: { zh: '说明', en: 'Message' }, max: 255, width: 200 },
    clientId: { kind: 'string', label: { zh: '客户端', en: 'Client' }, max: 64, list: false },
    remoteIp: { kind: 'string', label: { zh: '登录IP', en: 'Client IP' }, max: 255, search: true, width: 130 },
    userAgent: { kind: 'string', label: { zh: '用户代理', en: 'User agent' }, max: 1000, list: false },
    createTime: createTimeField(),
  },
  indexes: logIndexes('blade_log_login'),
  defaultSort: [{ field: 'createTime', desc: true }],
  series: logSeries('week'),
});

/** `GET /api/blade-desk/loginLog/count`: the welcome page's sign-in figures ({@link LoginLogCount}). */
export const LOGIN_LOG_COUNT_PATH = '/blade-desk/loginLog/count';

/** Sign-ins of one day (`GET /api/blade-desk/loginLog/count`). */
export interface LoginDayCount {
  /** `yyyy-MM-dd`, the server's local day. */
  date: string;
  total: number;
  success: number;
  fail: number;
}

/** The welcome page's sign-in figures: today, and each of the last 7 days (oldest first, today last). */
export interface LoginLogCount {
  today: LoginDayCount;
  days: LoginDayCount[];
}

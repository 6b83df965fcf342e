import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QR_TTL_MS } from '../src/modules/auth/qr/qr-session';
import { createTestApp, md5, type TestApp } from './support/test-app';

/**
 * The language of the server's messages: Chinese unless the caller's most preferred language is
 * English (the web app sends the language chosen in the console on every call).
 */
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
});
afterAll(() => t.close());

async function call(method: 'GET' | 'POST', url: string, language?: string, payload?: object) {
  const res = await t.as(admin, {
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: language ? { 'accept-language': language } : {},
  });
  return { status: res.statusCode, msg: (res.json() as { msg: string }).msg };
}

describe('reply language', () => {
  it('answers a bad paging parameter in the language asked for, Chinese by default', async () => {
    const url = '/api/blade-system/post/list?size=abc';
    expect(await call('GET', url)).toEqual({
      status: 400,
      msg: '请求参数 size 不正确: 应为 1 到 2147483647 之间的整数',
    });
    expect(await call('GET', url, 'en')).toEqual({
      status: 400,
      msg: 'The parameter size is invalid: must be an integer from 1 to 2147483647',
    });
    // A browser's own list: the first preference decides.
    expect((await call('GET', url, 'zh-CN,zh;q=0.9,en;q=0.8')).msg).toMatch(/^请求参数/);
    expect((await call('GET', url, 'en-US,en;q=0.9,zh-CN;q=0.8')).msg).toMatch(/^The parameter/);
    expect((await call('GET', url, 'zh-CN;q=0.5,en;q=0.9')).msg).toMatch(/^The parameter/);
  });

  it('names the refused field of a submit in English, and confirms in English', async () => {
    const missing = await call('POST', '/api/blade-system/post/submit', 'en', { category: 1, postName: 'x' });
    expect(missing).toEqual({ status: 400, msg: 'Please enter code' });
    expect((await call('POST', '/api/blade-system/post/submit', undefined, { category: 1, postName: 'x' })).msg).toBe(
      '请输入岗位编号',
    );
    const added = await call('POST', '/api/blade-system/post/submit', 'en', {
      category: 1,
      postCode: 'lang01',
      postName: 'Language probe',
    });
    expect(added).toEqual({ status: 200, msg: 'Added' });
  });

  it('says not found, unknown sort and bad ids in English', async () => {
    expect(await call('GET', '/api/blade-system/post/detail?id=123', 'en')).toEqual({
      status: 404,
      msg: 'The row does not exist or you may not see it',
    });
    expect((await call('GET', '/api/blade-system/post/list?descs=password', 'en')).msg).toBe(
      'Unsupported sort field: password',
    );
    expect((await call('POST', '/api/blade-system/post/remove?ids=x', 'en')).msg).toBe(
      'The parameter ids is invalid: must be comma-separated ids (each up to 9223372036854775807)',
    );
    expect(await call('GET', '/api/no-such-route', 'en')).toEqual({ status: 404, msg: 'Not found' });
  });

  // One refusal per converted module area: each must come back in English when asked for.
  it('answers module refusals in English: system, user, resource, device', async () => {
    expect(await call('GET', '/api/blade-system/dept/list?parentId=x', 'en')).toEqual({
      status: 400,
      msg: 'The parameter parentId is invalid: must be an id',
    });
    const mismatch = { oldPassword: 'a', newPassword: 'b', newPassword1: 'c' };
    expect(await call('POST', '/api/blade-user/update-password', 'en', mismatch)).toEqual({
      status: 400,
      msg: 'The two new passwords do not match',
    });
    expect((await call('POST', '/api/blade-user/update-password', undefined, mismatch)).msg).toBe('两次密码输入不一致');
    expect(await call('POST', '/api/alisms/send?tenantId=000000&phone=123', 'en')).toEqual({
      status: 400,
      msg: 'The phone number must have 11 digits',
    });
    expect(await call('GET', '/api/blade-business/iot/model-data?deviceCode=a%24b', 'en')).toEqual({
      status: 400,
      msg: 'The parameter deviceCode is invalid: a device code has only letters, digits, _ and -',
    });
  });

  /** The same call in Chinese (no preference) and in English. */
  async function both(method: 'GET' | 'POST', url: string, payload?: object) {
    const zh = await call(method, url, undefined, payload);
    const en = await call(method, url, 'en', payload);
    return { status: [zh.status, en.status], zh: zh.msg, en: en.msg };
  }

  it('answers the token endpoint in the language asked for (password, QR and social grants)', async () => {
    const refusal = async (params: Record<string, string>, language?: string) =>
      (await t.token(params, language ? { 'accept-language': language } : {})).json() as {
        error_code: number;
        error_description: string;
      };
    const wrong = { tenantId: '000000', username: 'nobody-lang', password: md5('x'), grant_type: 'password' };
    expect(await refusal(wrong)).toEqual({ error_code: 400, error_description: '用户名或密码不正确' });
    expect(await refusal(wrong, 'en')).toEqual({ error_code: 400, error_description: 'Wrong user name or password' });
    const qr = { tenantId: '000000', grant_type: 'qr', code: 'x'.repeat(24), state: 'y'.repeat(24) };
    expect((await refusal(qr)).error_description).toBe('二维码无效');
    expect((await refusal(qr, 'en')).error_description).toBe('The QR code is invalid');
    const social = { tenantId: '000000', grant_type: 'social', source: 'github', code: 'c' };
    expect((await refusal(social)).error_description).toBe('缺少第三方登录参数: state');
    expect((await refusal(social, 'en')).error_description).toBe('The third-party sign-in parameter state is missing');
  });

  it('says an expired QR code and an unknown social source in English', async () => {
    const created = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/qrcode?tenantId=000000' });
    const { code } = (created.json() as { data: { code: string } }).data;
    t.clock.advance(QR_TTL_MS + 1000);
    expect(await both('POST', `/api/blade-auth/oauth/qrcode/scan?code=${code}`)).toEqual({
      status: [400, 400],
      zh: '二维码已过期',
      en: 'The QR code has expired',
    });
    expect(await both('GET', '/api/blade-auth/oauth/render/nosuch?tenantId=000000')).toEqual({
      status: [400, 400],
      zh: '第三方登录来源不存在或未启用',
      en: 'The third-party sign-in source does not exist or is disabled',
    });
  });

  it('answers develop refusals in English: a bad datasource, an unsupported generator system', async () => {
    expect(await both('POST', '/api/blade-develop/datasource/test', { url: 'mysql://db.example.com/x' })).toEqual({
      status: [400, 400],
      zh: '只支持 PostgreSQL 连接地址 (postgres://、postgresql:// 或 jdbc:postgresql://)',
      en: 'Only PostgreSQL connection URLs are supported (postgres://, postgresql:// or jdbc:postgresql://)',
    });
    expect(await both('POST', '/api/blade-develop/datasource/test', { url: 'postgres://127.0.0.1:5432/x' })).toEqual({
      status: [400, 400],
      zh: expect.stringMatching(/^不允许访问地址 127\.0\.0\.1\(本机地址\)/) as unknown as string,
      en: expect.stringMatching(
        /^The address 127\.0\.0\.1 may not be reached \(loopback address\)/,
      ) as unknown as string,
    });
    expect(await both('POST', '/api/blade-develop/code/gen-code?ids=1&system=java')).toEqual({
      status: [400, 400],
      zh: '不支持的系统 "java",只支持 mes',
      en: 'Unsupported system "java": only mes is supported',
    });
  });

  it('answers a bad visit QR code size and a bad local log upload in English', async () => {
    expect(await both('GET', '/api/blade-holiday/visit/qrcode?size=5')).toEqual({
      status: [400, 400],
      zh: '二维码尺寸应为 128 到 1024 之间的整数',
      en: 'The QR code size must be an integer from 128 to 1024',
    });
    expect(await both('POST', '/api/blade-log/error/upload', [{ type: 'error' }])).toEqual({
      status: [400, 400],
      zh: '第1条日志缺少内容(message)',
      en: 'Log entry 1 has no message (message)',
    });
    expect(await both('GET', '/api/blade-system/jobs/failed?name=DROP%20TABLE')).toEqual({
      status: [400, 400],
      zh: '请求参数 name 不正确: 应为任务名称,如 log.prune',
      en: 'The parameter name is invalid: must be a job name such as log.prune',
    });
  });
});

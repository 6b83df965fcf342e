import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

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
});

import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResult } from '@mes/contracts';
import { user } from '../src/platform/db/schema';
import { ADMIN_PASSWORD, createTestApp, md5, type TestApp } from './support/test-app';
import { png } from '../../../test-fixtures/png';

let t: TestApp;
let token: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  const signed = await t.signIn();
  token = signed.access_token;
  adminId = signed.user_id;
});
afterAll(() => t.close());

const adminRow = async () => (await t.ctx.db.select().from(user).where(eq(user.id, adminId)))[0]!;

const updateInfo = (body: unknown, as = token) =>
  t.as(as, { method: 'POST', url: '/api/blade-user/update-info', payload: body as Record<string, unknown> });

describe('POST /api/blade-user/update-info', () => {
  it('changes the five profile fields, sets the audit columns, and nothing else', async () => {
    const before = await adminRow();
    const res = await updateInfo({
      name: '新昵称',
      realName: '张三',
      phone: '13800138000',
      email: 'admin@example.com',
      avatar: '/api/blade-resource/oss/endpoint/file/20250101/0123456789abcdef0123456789abcdef.png',
      // None of these may change through the profile.
      password: 'x',
      tenantId: '999999',
      roleId: '1',
      account: 'hacker',
      deptId: '1',
      status: 0,
      isDeleted: 1,
      id: '1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<ApiResult<null>>()).toEqual({ code: 200, success: true, data: null, msg: '操作成功' });
    const after = await adminRow();
    expect(after).toMatchObject({
      name: '新昵称',
      realName: '张三',
      phone: '13800138000',
      email: 'admin@example.com',
      avatar: '/api/blade-resource/oss/endpoint/file/20250101/0123456789abcdef0123456789abcdef.png',
      password: before.password,
      tenantId: before.tenantId,
      roleId: before.roleId,
      account: before.account,
      deptId: before.deptId,
      status: before.status,
      isDeleted: 0,
      id: adminId,
      updateUser: adminId,
    });
    expect(after.updateTime.getTime()).toBeGreaterThanOrEqual(before.updateTime.getTime());
    // The view the header reads shows the new name.
    const info = await t.as(token, { method: 'GET', url: '/api/blade-auth/oauth/user-info' });
    expect(info.json<ApiResult<{ userName: string }>>().data.userName).toBe('新昵称');
  });

  it('leaves fields that are not sent alone, and allows clearing phone and email', async () => {
    expect((await updateInfo({ phone: '', email: '' })).statusCode).toBe(200);
    expect(await adminRow()).toMatchObject({ name: '新昵称', realName: '张三', phone: '', email: '' });
  });

  it.each([
    [{ phone: '1380013800' }, '手机号格式不正确'],
    [{ phone: '23800138000' }, '手机号格式不正确'],
    [{ phone: '1380013800a' }, '手机号格式不正确'],
    [{ email: 'not-an-email' }, '邮箱格式不正确'],
    [{ email: `${'a'.repeat(40)}@example.com` }, '邮箱长度不能超过45个字符'],
    [{ name: 'n'.repeat(21) }, '昵称长度不能超过20个字符'],
    [{ realName: 'r'.repeat(11) }, '真实姓名长度不能超过10个字符'],
    [{ avatar: 'javascript:alert(1)' }, '头像地址不正确'],
    [{ avatar: `/${'a'.repeat(500)}` }, '头像地址长度不能超过500个字符'],
    [{ name: 12 }, '昵称必须是文本'],
  ])('refuses %j with 400 %s and changes nothing', async (body, msg) => {
    const before = await adminRow();
    const res = await updateInfo(body);
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiResult<null>>()).toMatchObject({ code: 400, success: false, msg });
    expect(await adminRow()).toEqual(before);
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/blade-user/update-info', payload: { name: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/blade-user/update-password', () => {
  const updatePassword = (params: Record<string, string>, as = token) =>
    t.as(as, { method: 'POST', url: `/api/blade-user/update-password?${new URLSearchParams(params).toString()}` });

  it('refuses missing fields, a mismatch and a wrong old password, and keeps the password', async () => {
    const before = (await adminRow()).password;
    const full = { oldPassword: md5(ADMIN_PASSWORD), newPassword: md5('New#Pass1'), newPassword1: md5('New#Pass1') };
    for (const name of ['oldPassword', 'newPassword', 'newPassword1'] as const) {
      const { [name]: _left, ...rest } = full;
      const res = await updatePassword(rest);
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiResult<null>>().msg).toBe(`缺少必要的请求参数: ${name}`);
    }
    const mismatch = await updatePassword({ ...full, newPassword1: md5('Other#Pass1') });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json<ApiResult<null>>().msg).toBe('两次密码输入不一致');
    const wrong = await updatePassword({ ...full, oldPassword: md5('not-the-password') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ApiResult<null>>().msg).toBe('原密码不正确');
    // The typed text and its md5 are the same password: still a mismatch with another one.
    const mixed = await updatePassword({ ...full, newPassword: 'New#Pass1', newPassword1: md5('Other#Pass1') });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json<ApiResult<null>>().msg).toBe('两次密码输入不一致');
    expect((await adminRow()).password).toBe(before);
  });

  it('takes the passwords in plain text (BladeX clients send them so) as their md5', async () => {
    const plain = await updatePassword({
      oldPassword: ADMIN_PASSWORD,
      newPassword: 'Plain#Pass1',
      newPassword1: md5('Plain#Pass1'),
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect((await t.signIn('admin', 'Plain#Pass1')).user_id).toBe(adminId);
    // The session that changed the password goes on, so it can change it back.
    const back = await updatePassword({
      oldPassword: 'Plain#Pass1',
      newPassword: ADMIN_PASSWORD,
      newPassword1: ADMIN_PASSWORD,
    });
    expect(back.statusCode, back.body).toBe(200);
    expect((await t.signIn()).user_id).toBe(adminId);
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/blade-user/update-password' });
    expect(res.statusCode).toBe(401);
  });

  it('changes the password (form body): the old one stops working, the new one signs in', async () => {
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/blade-user/update-password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        oldPassword: md5(ADMIN_PASSWORD),
        newPassword: md5('New#Pass1'),
        newPassword1: md5('New#Pass1'),
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<ApiResult<null>>()).toMatchObject({ success: true, msg: '操作成功' });
    await expect(t.signIn('admin', ADMIN_PASSWORD)).rejects.toThrow(/sign-in failed: 400/);
    const again = await t.signIn('admin', 'New#Pass1');
    expect(again.user_id).toBe(adminId);

    // And back through query parameters (the BladeX way), so the other tests keep the seed password.
    const back = await updatePassword({
      oldPassword: md5('New#Pass1'),
      newPassword: md5(ADMIN_PASSWORD),
      newPassword1: md5(ADMIN_PASSWORD),
    });
    expect(back.statusCode).toBe(200);
    token = (await t.signIn()).access_token;
  });
});

function multipartBody(filename: string, content: Buffer, type = 'image/png') {
  const boundary = '----mes-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

// The avatar kind holds uploads to the spec's avatar rule (JPG / PNG by content, at most 500 KB).
const putFile = (filename: string, content: Buffer, type?: string) =>
  t.as(token, {
    method: 'POST',
    url: '/api/blade-resource/oss/endpoint/put-file?kind=avatar',
    ...multipartBody(filename, content, type),
  });

const storedFiles = () => {
  const root = path.join(t.ctx.dataDir, 'upload');
  return fs.existsSync(root)
    ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    : [];
};

interface PutFileReply {
  link: string;
  name: string;
  originalName: string;
}

describe('avatar upload and download', () => {
  it('stores a real PNG under a generated name and serves it back as image/png', async () => {
    const image = png(4);
    const res = await putFile('我的头像.png', image);
    expect(res.statusCode).toBe(200);
    const data = res.json<ApiResult<PutFileReply>>().data;
    expect(data.originalName).toBe('我的头像.png');
    // `name` is the object key; the link is the public file route without the `upload/` prefix.
    expect(data.name).toMatch(/^upload\/\d{8}\/[0-9a-f]{32}\.png$/);
    expect(data.link).toBe(`/api/blade-resource/oss/endpoint/file/${data.name.slice('upload/'.length)}`);
    expect(fs.readFileSync(path.join(t.ctx.dataDir, data.name))).toEqual(image);

    // No token: an <img src> cannot send one.
    const served = await t.app.inject({ method: 'GET', url: data.link });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-disposition']).toBe('inline');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload).toEqual(image);
  });

  it('decides JPEG by content and names it .jpg', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
    const res = await putFile('photo.PNG', jpeg, 'image/png');
    expect(res.statusCode).toBe(200);
    const data = res.json<ApiResult<PutFileReply>>().data;
    expect(data.name).toMatch(/\.jpg$/);
    const served = await t.app.inject({ method: 'GET', url: data.link });
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it.each([
    [
      'a text file renamed .png',
      'evil.png',
      Buffer.from('<script>alert(1)</script>'),
      '只能上传 JPG 或 PNG 格式的图片',
    ],
    ['an empty file', 'empty.png', Buffer.alloc(0), '只能上传 JPG 或 PNG 格式的图片'],
    ['a file over 500 KB', 'big.png', Buffer.concat([png(1), Buffer.alloc(500 * 1024)]), '上传的文件不能超过 500KB'],
    ['a name with a path', '../../etc/avatar.png', png(1), '文件名不正确'],
    ['a name with a Windows path', 'C:\\Users\\x\\avatar.png', png(1), '文件名不正确'],
  ])('refuses %s with 400 and stores nothing', async (_what, filename, content, msg) => {
    const before = storedFiles().length;
    const res = await putFile(filename, content);
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiResult<null>>()).toMatchObject({ success: false, msg });
    expect(storedFiles().length).toBe(before);
  });

  it('refuses a request without a file', async () => {
    const noFile = await t.as(token, {
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--b--\r\n',
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json<ApiResult<null>>().msg).toBe('请选择要上传的文件');
    const json = await t.as(token, { method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file', payload: {} });
    expect(json.statusCode).toBe(400);
  });

  it('needs a token to upload', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      ...multipartBody('a.png', png(1)),
    });
    expect(res.statusCode).toBe(401);
  });

  it('serves only well-formed names, never a path', async () => {
    fs.writeFileSync(path.join(t.ctx.dataDir, 'secret.txt'), 'secret');
    for (const url of [
      '/api/blade-resource/oss/endpoint/file/20250101/..%2F..%2Fsecret.txt',
      '/api/blade-resource/oss/endpoint/file/..%2F..%2F/secret.png',
      '/api/blade-resource/oss/endpoint/file/2025010/0123456789abcdef0123456789abcdef.png',
      '/api/blade-resource/oss/endpoint/file/20250101/0123456789ABCDEF0123456789abcdef.png',
      '/api/blade-resource/oss/endpoint/file/20250101/0123456789abcdef0123456789abcdef.svg',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.body).not.toContain('secret');
    }
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/blade-resource/oss/endpoint/file/20250101/0123456789abcdef0123456789abcdef.png',
    });
    expect(missing.statusCode).toBe(404);
  });
});

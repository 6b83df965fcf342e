import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OssCategory, SmsCategory, type ApiResult } from '@mes/contracts';
import { oss, sms, socialSource } from '../src/platform/db/schema';
import { allowLoopback } from './support/params';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Provider settings a definition makes required for some providers only (`requiredWhen`) are
 * refused by the engine with the field's own message before anything is stored, on add and on
 * an update that switches the provider; hidden settings (`visibleWhen`) are ignored.
 */
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await allowLoopback(t);
  admin = (await t.signIn()).access_token;
});
afterAll(() => t.close());

const submit = (api: string, payload: Record<string, unknown>) =>
  t.as(admin, { method: 'POST', url: `/api/blade-resource/${api}/submit`, payload });

async function refused(api: string, payload: Record<string, unknown>, msg: string, count: () => Promise<number>) {
  const before = await count();
  const res = await submit(api, payload);
  expect(res.statusCode).toBe(400);
  expect(res.json<ApiResult<null>>()).toMatchObject({ code: 400, success: false, msg });
  expect(await count()).toBe(before);
}

async function stored(api: string, payload: Record<string, unknown>): Promise<string> {
  const res = await submit(api, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiResult<string>>().data;
}

describe('object storage', () => {
  const count = async () => (await t.ctx.db.select().from(oss).where(eq(oss.isDeleted, 0))).length;
  const minio = {
    category: OssCategory.minio,
    ossCode: 'cond-minio',
    endpoint: 'http://127.0.0.1:9000',
    accessKey: 'CONDACCESSKEY0001',
    secretKey: 'cond-secret',
    bucketName: 'mes-cond',
  };

  it.each([
    ['endpoint', '请输入资源地址'],
    ['accessKey', '请输入AccessKey'],
    ['secretKey', '请输入SecretKey'],
    ['bucketName', '请输入空间名'],
  ])('refuses an S3 provider without %s, storing nothing', async (name, msg) => {
    await refused('oss', { ...minio, [name]: '' }, msg, count);
    const without: Record<string, unknown> = { ...minio };
    delete without[name];
    await refused('oss', without, msg, count);
  });

  it('stores a complete S3 provider, and a local disk without any S3 setting (ignoring one sent)', async () => {
    await stored('oss', minio);
    const id = await stored('oss', { category: OssCategory.local, ossCode: 'cond-disk', endpoint: 'not an address' });
    const [row] = await t.ctx.db.select().from(oss).where(eq(oss.id, id));
    expect(row?.endpoint).toBe('');
  });

  it('refuses switching a local disk to MinIO without its settings, and keeps the row', async () => {
    const [disk] = await t.ctx.db.select().from(oss).where(eq(oss.ossCode, 'cond-disk'));
    const id = disk?.id as string;
    await refused('oss', { id, category: OssCategory.minio }, '请输入资源地址', count);
    const [after] = await t.ctx.db.select().from(oss).where(eq(oss.id, id));
    expect(after?.category).toBe(OssCategory.local);
    await stored('oss', { ...minio, id, ossCode: 'cond-disk' });
    const [moved] = await t.ctx.db.select().from(oss).where(eq(oss.id, id));
    expect(moved).toMatchObject({ category: OssCategory.minio, bucketName: 'mes-cond' });
  });
});

describe('SMS', () => {
  const count = async () => (await t.ctx.db.select().from(sms).where(eq(sms.isDeleted, 0))).length;

  it('asks each provider for what it sends with, by the field', async () => {
    const yunpian = { category: SmsCategory.yunpian, smsCode: 'cond-yp', templateId: '1' };
    await refused('sms', yunpian, '请输入SecretKey', count);
    const tencent = { category: SmsCategory.tencent, smsCode: 'cond-tx', templateId: '1', signName: 'S' };
    await refused('sms', { ...tencent, accessKey: 'a', secretKey: 's' }, '请输入应用ID', count);
    await refused(
      'sms',
      { category: SmsCategory.aliyun, smsCode: 'cond-ali', templateId: 'T' },
      '请输入AccessKey',
      count,
    );
    await stored('sms', { ...yunpian, secretKey: 'yunpian-api-key' });
    await stored('sms', { ...tencent, accessKey: 'a', secretKey: 's', appId: '1400000000' });
    // The development provider needs nothing but its template.
    await stored('sms', { category: SmsCategory.development, smsCode: 'cond-dev', templateId: 'T' });
  });

  it('keeps the stored secret on an edit that leaves it empty', async () => {
    const [row] = await t.ctx.db.select().from(sms).where(eq(sms.smsCode, 'cond-yp'));
    await stored('sms', { id: row?.id, secretKey: '', remark: '改备注' });
    const [after] = await t.ctx.db
      .select()
      .from(sms)
      .where(eq(sms.id, row?.id as string));
    expect(after?.secretKey).toBe(row?.secretKey);
    expect(after?.remark).toBe('改备注');
  });
});

describe('social sign-in sources', () => {
  const count = async () => (await t.ctx.db.select().from(socialSource).where(eq(socialSource.isDeleted, 0))).length;
  const oidc = {
    source: 'cond-corp',
    name: 'Corp',
    category: 'oidc',
    clientId: 'cond-client',
    clientSecret: 'cond-secret',
    authorizeUrl: 'http://127.0.0.1:8080/authorize',
    tokenUrl: 'http://127.0.0.1:8080/token',
    userInfoUrl: 'http://127.0.0.1:8080/userinfo',
  };

  it.each([
    ['authorizeUrl', '请输入授权地址'],
    ['tokenUrl', '请输入令牌地址'],
    ['userInfoUrl', '请输入用户信息地址'],
  ])('refuses OpenID Connect without %s', async (name, msg) => {
    await refused('social', { ...oidc, [name]: '' }, msg, count);
  });

  it('stores OpenID Connect with its URLs, and GitHub without any', async () => {
    await stored('social', oidc);
    await stored('social', { source: 'cond-gh', name: 'GitHub', category: 'github', clientId: 'c', clientSecret: 's' });
    await refused(
      'social',
      { source: 'cond-nosecret', name: 'x', category: 'github', clientId: 'c' },
      '请输入 Client Secret',
      count,
    );
  });

  it('refuses switching GitHub to OpenID Connect without the URLs', async () => {
    const [row] = await t.ctx.db.select().from(socialSource).where(eq(socialSource.source, 'cond-gh'));
    await refused('social', { id: row?.id, category: 'oidc' }, '请输入授权地址', count);
    const [after] = await t.ctx.db
      .select()
      .from(socialSource)
      .where(eq(socialSource.id, row?.id as string));
    expect(after?.category).toBe('github');
  });
});

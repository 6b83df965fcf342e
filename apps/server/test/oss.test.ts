import net from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OssCategory, type ApiResult, type PageResult } from '@mes/contracts';
import { domainOf, regionOf } from '../src/modules/providers/storage/s3-storage';
import { secretBoxFor } from '../src/platform/crypto/secret-box';
import { attach, oss } from '../src/platform/db/schema';
import { startS3TestServer, type S3TestServer } from './support/s3-test-server';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';
import { allowLoopback } from './support/params';
import { png } from '../../../test-fixtures/png';

/** Object-storage configurations and uploads through an S3-compatible service. */
const ACCESS_KEY = 'MESTESTACCESSKEY0001';
const SECRET_KEY = 'mes-test-secret-key/0123456789abcdefXYZ';
const BUCKET = 'mes-files';

let t: TestApp;
let s3: S3TestServer;
let admin: string;

beforeAll(async () => {
  s3 = await startS3TestServer({ credentials: { [ACCESS_KEY]: SECRET_KEY }, buckets: [BUCKET] });
  t = await createTestApp();
  await allowLoopback(t);
  admin = (await t.signIn()).access_token;
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

interface OssRow {
  id: string;
  ossCode: string;
  category: number;
  accessKey: string;
  secretKey?: string;
  status: number;
}

interface Uploaded {
  link: string;
  domain: string;
  name: string;
  originalName: string;
  attachId: string;
}

const api = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, as = admin) =>
  t.as(as, { method, url, payload });

async function submitConfig(body: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/api/blade-resource/oss/submit', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ApiResult<string>>().data;
}

const minio = (ossCode: string, extra: Record<string, unknown> = {}) => ({
  category: OssCategory.minio,
  ossCode,
  endpoint: s3.endpoint,
  accessKey: ACCESS_KEY,
  secretKey: SECRET_KEY,
  bucketName: BUCKET,
  ...extra,
});

const enable = (id: string) => api('POST', `/api/blade-resource/oss/enable?id=${id}`);

function multipart(filename: string, content: Buffer) {
  const boundary = '----mes-oss-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const putFile = (filename: string, content: Buffer, query = '', as = admin) =>
  t.as(as, {
    method: 'POST',
    url: `/api/blade-resource/oss/endpoint/put-file${query}`,
    ...multipart(filename, content),
  });

const attachRows = () => t.ctx.db.select().from(attach).where(eq(attach.isDeleted, 0));

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('configurations', () => {
  it('masks the access key, never returns the secret, and stores the secret sealed', async () => {
    const id = await submitConfig(minio('masked'));
    const list = await api('GET', '/api/blade-resource/oss/list?ossCode=masked');
    const row = list.json<ApiResult<PageResult<OssRow>>>().data.records[0] as OssRow;
    expect(row.accessKey).toBe('MEST****0001');
    expect(row).not.toHaveProperty('secretKey');
    expect(list.body).not.toContain(SECRET_KEY);
    expect(list.body).not.toContain(ACCESS_KEY);
    const detail = await api('GET', `/api/blade-resource/oss/detail?id=${id}`);
    expect(detail.body).not.toContain(SECRET_KEY);
    expect(detail.body).not.toContain(ACCESS_KEY);

    const [stored] = await t.ctx.db.select().from(oss).where(eq(oss.id, id));
    expect(stored?.accessKey).toBe(ACCESS_KEY);
    expect(stored?.secretKey).toMatch(/^enc:v1:/);
    expect(secretBoxFor(t.ctx.dataDir).open(stored?.secretKey ?? '')).toBe(SECRET_KEY);

    // Sending the masked key and no secret back (an edit of the remark) keeps both.
    await submitConfig({ ...minio('masked'), id, accessKey: row.accessKey, secretKey: '', remark: '改了备注' });
    const [after] = await t.ctx.db.select().from(oss).where(eq(oss.id, id));
    expect(after?.accessKey).toBe(ACCESS_KEY);
    expect(secretBoxFor(t.ctx.dataDir).open(after?.secretKey ?? '')).toBe(SECRET_KEY);
    expect(after?.remark).toBe('改了备注');
  });

  it.each([
    ['an unknown provider', { ...{ category: 9 } }, '未知的存储服务商'],
    ['an S3 provider without a bucket', { bucketName: '' }, '请输入空间名'],
    ['an S3 provider without an endpoint', { endpoint: '' }, '请输入资源地址'],
    ['an S3 provider without a secret', { secretKey: '' }, '请输入SecretKey'],
    ['the reserved code local for a bucket', { ossCode: 'local' }, '资源编号 local 只能用于本地磁盘'],
  ])('refuses %s', async (_what, change, msg) => {
    const before = (await t.ctx.db.select().from(oss)).length;
    const res = await api('POST', '/api/blade-resource/oss/submit', { ...minio('refused'), ...change });
    expect(res.json<ApiResult<null>>()).toMatchObject({ code: 400, msg });
    expect((await t.ctx.db.select().from(oss)).length).toBe(before);
  });

  it('keeps one configuration enabled per tenant', async () => {
    const first = await submitConfig({ category: OssCategory.local, ossCode: 'disk-a' });
    const second = await submitConfig({ category: OssCategory.local, ossCode: 'disk-b' });
    expect((await enable(first)).statusCode).toBe(200);
    expect((await enable(second)).statusCode).toBe(200);
    const rows = await t.ctx.db.select().from(oss).where(eq(oss.tenantId, '000000'));
    expect(rows.filter((r) => r.status === 2).map((r) => r.ossCode)).toEqual(['disk-b']);
    // A local-disk configuration is how a tenant goes back to the server's disk.
    const res = await putFile('on-disk.txt', Buffer.from('disk'));
    expect(res.json<ApiResult<Uploaded>>().data.link).toMatch(/^\/api\/blade-resource\/oss\/endpoint\/file\//);
    const [row] = await t.ctx.db.select().from(attach).where(eq(attach.originalName, 'on-disk.txt'));
    expect(row?.ossCode).toBe('disk-b');
  });

  it('builds links as each provider serves them', () => {
    const base = { endpoint: 'https://s3.oss-cn-hangzhou.aliyuncs.com/', bucketName: 'mes', appId: '' };
    expect(domainOf({ ...base, category: OssCategory.aliyun })).toBe('https://mes.s3.oss-cn-hangzhou.aliyuncs.com');
    expect(regionOf({ endpoint: base.endpoint, region: '' })).toBe('cn-hangzhou');
    const cos = { category: OssCategory.tencent, endpoint: 'https://cos.ap-guangzhou.myqcloud.com', bucketName: 'mes' };
    expect(domainOf({ ...cos, appId: '1250000000' })).toBe('https://mes-1250000000.cos.ap-guangzhou.myqcloud.com');
    expect(domainOf({ ...cos, bucketName: 'mes-1250000000', appId: '1250000000' })).toBe(
      'https://mes-1250000000.cos.ap-guangzhou.myqcloud.com',
    );
    expect(regionOf({ endpoint: cos.endpoint, region: '' })).toBe('ap-guangzhou');
    expect(regionOf({ endpoint: 'https://s3.cn-east-1.qiniucs.com', region: '' })).toBe('cn-east-1');
    expect(
      domainOf({ category: OssCategory.minio, endpoint: 'http://10.0.0.5:9000', bucketName: 'mes', appId: '' }),
    ).toBe('http://10.0.0.5:9000/mes');
    expect(regionOf({ endpoint: 'http://10.0.0.5:9000', region: '' })).toBe('us-east-1');
    expect(regionOf({ endpoint: 'http://10.0.0.5:9000', region: 'cn-north-1' })).toBe('cn-north-1');
  });
});

describe('uploads through an S3-compatible service', () => {
  let configId: string;
  beforeAll(async () => {
    configId = await submitConfig(minio('minio-main'));
    expect((await enable(configId)).statusCode).toBe(200);
  });

  it('puts the file with a valid signature, records it, downloads it and removes it', async () => {
    const content = Buffer.from('%PDF-1.7 设备点检表');
    const res = await putFile('点检表.pdf', content);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<ApiResult<Uploaded>>().data;
    expect(data.name).toMatch(/^upload\/\d{8}\/[0-9a-f]{32}\.pdf$/);
    expect(data.domain).toBe(`${s3.endpoint}/${BUCKET}`);
    expect(data.link).toBe(`${s3.endpoint}/${BUCKET}/${data.name}`);
    expect(res.body).not.toContain(SECRET_KEY);

    const object = s3.objects.get(`${BUCKET}/${data.name}`);
    expect(object?.body).toEqual(content);
    // Not an image: the bucket serves it as a download too.
    expect(object?.contentType).toBe('application/octet-stream');
    expect(object?.contentDisposition).toMatch(/^attachment;/);
    expect(s3.requests.filter((r) => r.error)).toEqual([]);

    const [row] = await t.ctx.db.select().from(attach).where(eq(attach.id, data.attachId));
    expect(row).toMatchObject({ ossCode: 'minio-main', name: data.name, link: data.link, attachSize: content.length });

    const download = await api('GET', `/api/blade-resource/attach/download?id=${data.attachId}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload).toEqual(content);
    expect(download.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('点检表.pdf')}`);

    const removed = await api('POST', `/api/blade-resource/attach/remove?ids=${data.attachId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(s3.objects.has(`${BUCKET}/${data.name}`)).toBe(false);
    expect(s3.requests.filter((r) => r.error)).toEqual([]);
  });

  it('stores images with their type, so the bucket shows them', async () => {
    const res = await putFile('avatar.png', png(5), '?kind=avatar');
    const data = res.json<ApiResult<Uploaded>>().data;
    expect(s3.objects.get(`${BUCKET}/${data.name}`)?.contentType).toBe('image/png');
    expect(s3.objects.get(`${BUCKET}/${data.name}`)?.contentDisposition).toBeUndefined();
  });

  it('refuses removing or renaming a configuration while attachments use it', async () => {
    const res = await api('POST', `/api/blade-resource/oss/remove?ids=${configId}`);
    expect(res.json<ApiResult<null>>()).toMatchObject({
      code: 400,
      msg: '存储配置 minio-main 下还有附件,请先删除这些附件',
    });
    const renamed = await api('POST', '/api/blade-resource/oss/submit', { id: configId, ossCode: 'minio-renamed' });
    expect(renamed.json<ApiResult<null>>()).toMatchObject({
      code: 400,
      msg: '存储配置 minio-main 下还有附件,不能修改资源编号或服务商',
    });
  });

  describe('provider failures: a clear message, nothing stored', () => {
    const expectNothingStored = async (run: () => Promise<{ statusCode: number; body: string }>, msg: string) => {
      const [objects, rows] = [s3.objects.size, (await attachRows()).length];
      const res = await run();
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, msg });
      expect(res.body).not.toContain(SECRET_KEY);
      expect(s3.objects.size).toBe(objects);
      expect((await attachRows()).length).toBe(rows);
    };

    it('a wrong secret key', async () => {
      const id = await submitConfig(minio('wrong-secret', { secretKey: 'not-the-secret' }));
      await enable(id);
      await expectNothingStored(
        () => putFile('a.txt', Buffer.from('x')),
        '存储服务拒绝访问,请检查 AccessKey、SecretKey 以及空间的访问权限',
      );
      expect(s3.requests.at(-1)?.error).toBe('SignatureDoesNotMatch');
    });

    it('an unknown access key', async () => {
      const id = await submitConfig(minio('wrong-access', { accessKey: 'NOSUCHACCESSKEY00000' }));
      await enable(id);
      await expectNothingStored(
        () => putFile('a.txt', Buffer.from('x')),
        '存储服务拒绝访问,请检查 AccessKey、SecretKey 以及空间的访问权限',
      );
      expect(s3.requests.at(-1)?.error).toBe('InvalidAccessKeyId');
    });

    it('a missing bucket', async () => {
      const id = await submitConfig(minio('no-bucket', { bucketName: 'no-such-bucket' }));
      await enable(id);
      await expectNothingStored(() => putFile('a.txt', Buffer.from('x')), '存储空间 no-such-bucket 不存在');
    });

    it('an endpoint nobody answers', async () => {
      const endpoint = `http://127.0.0.1:${await closedPort()}`;
      const id = await submitConfig(minio('unreachable', { endpoint }));
      await enable(id);
      await expectNothingStored(
        () => putFile('a.txt', Buffer.from('x')),
        `无法连接存储服务 ${endpoint},请检查资源地址`,
      );
    });

    it('a disabled configuration named by code', async () => {
      await enable(configId);
      await expectNothingStored(
        () => putFile('a.txt', Buffer.from('x'), '?code=no-bucket'),
        '存储配置 no-bucket 未启用,请先启用后再上传',
      );
    });
  });
});

describe('choosing a configuration by code', () => {
  it('needs oss:write; with it the upload goes to the named configuration', async () => {
    const id = await submitConfig(minio('debug-target'));
    await enable(id);
    const viewer = await signInWithScopes(t, { account: 'ossview', codes: ['oss:read'] });
    expect((await putFile('a.txt', Buffer.from('x'), '?code=debug-target', viewer)).statusCode).toBe(403);

    const operator = await signInWithScopes(t, { account: 'ossop', codes: ['oss:write'] });
    const res = await putFile('debug.txt', Buffer.from('debug'), '?code=debug-target', operator);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<ApiResult<Uploaded>>().data;
    const [row] = await t.ctx.db
      .select()
      .from(attach)
      .where(and(eq(attach.id, data.attachId), eq(attach.ossCode, 'debug-target')));
    expect(row).toBeDefined();
    expect(s3.objects.get(`${BUCKET}/${data.name}`)?.body).toEqual(Buffer.from('debug'));
  });
});

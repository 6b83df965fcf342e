import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OssCategory, SmsCategory } from '@mes/contracts';
import { forbiddenClass } from '../src/platform/net/address-class';
import { httpUrlOf, OutboundError, resolveOutbound } from '../src/platform/net/outbound-guard';
import { outboundRequest } from '../src/platform/net/outbound-http';
import { OutboundPolicy } from '../src/platform/net/outbound-policy';
import { revealsSecret } from '../src/platform/net/secret-text';
import { OAuthTestServer } from './support/oauth-test-server';
import { allowLoopback, setParam } from './support/params';
import { startS3TestServer, type S3TestServer } from './support/s3-test-server';
import { startYunpianServer, type ProviderServer } from './support/sms-provider-servers';
import { createTestApp, md5, type TestApp } from './support/test-app';

const NONE = new OutboundPolicy([]);
const refusedHost = async (policy: OutboundPolicy, host: string) => {
  try {
    await resolveOutbound(policy, host);
    return undefined;
  } catch (e) {
    if (e instanceof OutboundError && e.kind === 'refused') return e.message;
    throw e;
  }
};

describe('address classes', () => {
  it('names every class the platform refuses', () => {
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['::1', 'loopback'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['::', 'unspecified'],
      ['169.254.1.1', 'link-local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['fc00::1', 'private'],
      ['fd12:3456::1', 'private'],
      ['100.64.0.1', 'shared'],
      ['100.127.255.255', 'shared'],
      ['169.254.169.254', 'metadata'],
      ['100.100.100.200', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      // IPv6 forms that deliver to an IPv4 address are judged by that address.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:a9fe:a9fe', 'metadata'],
      ['::127.0.0.1', 'loopback'],
      ['64:ff9b::a9fe:a9fe', 'metadata'],
      ['2002:7f00:1::', 'loopback'],
      ['2002:c0a8:101::1', 'private'],
      // Public addresses pass.
      ['8.8.8.8', undefined],
      ['172.32.0.1', undefined],
      ['100.128.0.1', undefined],
      ['::ffff:8.8.8.8', undefined],
      ['2606:4700:4700::1111', undefined],
    ];
    for (const [address, cls] of cases) expect(forbiddenClass(address), address).toBe(cls);
  });

  it('refuses host names that resolve to the server, and metadata names, by default', async () => {
    expect(await refusedHost(NONE, 'localhost')).toMatch(/^不允许访问地址 localhost\(本机地址\)/);
    expect(await refusedHost(NONE, 'metadata.google.internal')).toMatch(/云服务器元数据地址/);
    expect(await refusedHost(NONE, '[::1]')).toMatch(/^不允许访问地址 ::1\(本机地址\)/);
  });

  it('refuses every spelling of the loopback address in an http URL', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://LOCALHOST./',
      'https://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
    ]) {
      expect(await refusedHost(NONE, httpUrlOf(url).hostname), url).toMatch(/^不允许访问地址 /);
    }
    expect(() => httpUrlOf('file:///etc/passwd')).toThrow(/只支持 http/);
    expect(() => httpUrlOf('gopher://127.0.0.1:6379/')).toThrow(/只支持 http/);
  });

  it('lets the platform allow hosts, addresses and networks', async () => {
    const policy = OutboundPolicy.parse('127.0.0.1, localhost ; 10.0.0.0/8 *.corp.example fd00::/8 bogus/99');
    expect(await refusedHost(policy, '127.0.0.1')).toBeUndefined();
    expect(await refusedHost(policy, '::ffff:127.0.0.1')).toBeUndefined();
    expect(await refusedHost(policy, 'localhost')).toBeUndefined();
    expect(await refusedHost(policy, '10.20.30.40')).toBeUndefined();
    expect(await refusedHost(policy, 'fd00::5')).toBeUndefined();
    expect(await refusedHost(policy, '127.0.0.2')).toMatch(/本机地址/);
    expect(await refusedHost(policy, '192.168.0.1')).toMatch(/内网地址/);
    expect(await refusedHost(policy, '169.254.169.254')).toMatch(/元数据/);
    expect(policy.allowsHost('sso.corp.example')).toBe(true);
    expect(policy.allowsHost('corp.example.evil')).toBe(false);
  });
});

describe('outbound requests', () => {
  let target: http.Server;
  let hits: string[];
  let base: string;

  beforeAll(async () => {
    hits = [];
    target = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

  const get = (policy: OutboundPolicy, path: string) =>
    outboundRequest(policy, `${base}${path}`, { method: 'GET', headers: {}, timeoutMs: 2000, maxBytes: 1024 });

  it('sends nothing to a refused address, and reaches it once allowed', async () => {
    await expect(get(NONE, '/x')).rejects.toMatchObject({ kind: 'refused' });
    expect(hits).toEqual([]);
    const reply = await get(OutboundPolicy.parse('127.0.0.1'), '/x');
    expect(reply).toEqual({ status: 200, body: '{"ok":true}' });
  });

  it('never follows a redirect', async () => {
    const reply = await get(OutboundPolicy.parse('127.0.0.1'), '/redirect');
    expect(reply.status).toBe(302);
    expect(hits.filter((h) => h.startsWith('/latest'))).toEqual([]);
  });
});

describe('secret text', () => {
  it('spots a secret echoed in any case, encoded or partly masked', () => {
    const secret = 'S3cr3t/Key+value=';
    for (const text of [
      `bad key ${secret}`,
      `bad key ${secret.toUpperCase()}`,
      `bad key ${secret.toLowerCase()}`,
      `bad key ${encodeURIComponent(secret)}`,
      `bad key ${Buffer.from(secret).toString('base64')}`,
      `bad key ${Buffer.from(secret).toString('hex')}`,
      `bad key ${secret.slice(0, 7)}*********`,
      `bad key ****${secret.slice(-7)}`,
    ]) {
      expect(revealsSecret(text, [secret]), text).toBe(true);
    }
    expect(revealsSecret('isv.BUSINESS_LIMIT_CONTROL: 触发小时级流控', [secret])).toBe(false);
  });
});

describe('tenant-configured outbound calls', () => {
  let t: TestApp;
  let admin: string;
  let yunpian: ProviderServer;
  let s3: S3TestServer;
  let oauth: OAuthTestServer;
  const APIKEY = 'yp-Secret-Apikey-42';
  const S3_ACCESS = 'OUTBOUNDACCESSKEY001';
  const S3_SECRET = 'outbound-s3-secret/ABCDEF0123456789';

  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.signIn()).access_token;
    yunpian = await startYunpianServer(APIKEY);
    s3 = await startS3TestServer({ credentials: { [S3_ACCESS]: S3_SECRET }, buckets: ['outbound'] });
    oauth = await new OAuthTestServer({ 'ob-client': 'ob-client-secret' }).start();
  }, 120_000);
  afterAll(async () => {
    await yunpian.close();
    await s3.close();
    await oauth.stop();
    await t.close();
  });

  const post = (url: string, payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url, payload });
  const forbid = () => setParam(t, 'security.outbound.allow', 'none.invalid');
  const REFUSED =
    /^不允许访问地址 127\.0\.0\.1\(本机地址\);如确需访问,请平台管理员在参数 security\.outbound\.allow 中放行$/;

  it('keeps guest registration closed on a fresh install', async () => {
    const enabled = await t.app.inject({ method: 'GET', url: '/api/blade-user/register-guest/enabled' });
    expect(enabled.json()).toMatchObject({ success: true, data: false });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blade-user/register-guest',
      payload: { tenantId: '000000', account: 'early', password: md5('x') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('注册功能已关闭');
  });

  it('SMS: refuses a loopback endpoint on save and on send until the platform allows it', async () => {
    const config = {
      category: SmsCategory.yunpian,
      smsCode: 'yp-guard',
      templateId: '1',
      endpoint: yunpian.url,
      secretKey: APIKEY,
    };
    const refused = await post('/api/blade-resource/sms/submit', config);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toMatch(REFUSED);
    const metadata = await post('/api/blade-resource/sms/submit', { ...config, endpoint: 'http://169.254.169.254' });
    expect(metadata.json().msg).toMatch(/^不允许访问地址 169\.254\.169\.254\(云服务器元数据地址\)/);

    await allowLoopback(t);
    const saved = await post('/api/blade-resource/sms/submit', config);
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json().data as string;
    await post(`/api/blade-resource/sms/enable?id=${id}`, {});
    const sent = await post('/api/blade-resource/sms/endpoint/send-message', {
      code: 'yp-guard',
      phones: '13800000001',
    });
    expect(sent.json()).toMatchObject({ success: true });

    await forbid();
    const before = yunpian.accepted.length + yunpian.refused.length;
    const blocked = await post('/api/blade-resource/sms/endpoint/send-message', {
      code: 'yp-guard',
      phones: '13800000001',
    });
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json().msg).toMatch(REFUSED);
    expect(yunpian.accepted.length + yunpian.refused.length).toBe(before);
    await allowLoopback(t);

    // The stored key never follows the endpoint to a new address without being typed again.
    const moved = await post('/api/blade-resource/sms/submit', { id, endpoint: 'https://sms.example.com' });
    expect(moved.json().msg).toBe('服务地址已修改,请重新输入 SecretKey');
    const kept = await post('/api/blade-resource/sms/submit', { id, templateId: '2' });
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('SMS: a provider text that gives the key away is not shown, however it is disguised', async () => {
    for (const echoed of [
      APIKEY.toUpperCase(),
      encodeURIComponent(APIKEY),
      Buffer.from(APIKEY).toString('base64'),
      `${APIKEY.slice(0, 8)}********`,
    ]) {
      yunpian.failNext({ status: 401, body: { code: -1, msg: '非法的apikey', detail: `apikey=${echoed}` } });
      const res = await post('/api/blade-resource/sms/endpoint/send-message', {
        code: 'yp-guard',
        phones: '13800000001',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(
        '云片短信发送失败: 服务商返回的错误信息含有密钥内容,已隐藏,请检查 SecretKey 是否正确',
      );
    }
  });

  it('object storage: refuses a loopback endpoint on save and on upload until allowed', async () => {
    await forbid();
    const config = {
      category: OssCategory.minio,
      ossCode: 'guarded',
      endpoint: s3.endpoint,
      accessKey: S3_ACCESS,
      secretKey: S3_SECRET,
      bucketName: 'outbound',
    };
    const refused = await post('/api/blade-resource/oss/submit', config);
    expect(refused.json().msg).toMatch(REFUSED);
    await allowLoopback(t);
    const saved = await post('/api/blade-resource/oss/submit', config);
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json().data as string;
    await post(`/api/blade-resource/oss/enable?id=${id}`, {});

    await forbid();
    const boundary = '----outbound';
    const upload = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
    });
    expect(upload.statusCode).toBe(400);
    expect(upload.json().msg).toMatch(REFUSED);
    expect(s3.requests).toEqual([]);
    await allowLoopback(t);

    const moved = await post('/api/blade-resource/oss/submit', { id, endpoint: 'https://oss.example.com' });
    expect(moved.json().msg).toBe('资源地址已修改,请重新输入 SecretKey');
    // Leave the disk as the upload target for the other tests.
    await post('/api/blade-resource/oss/submit', { id, status: 2 });
  });

  it('social sign-in: refuses loopback token and user-info URLs, on save and at sign-in', async () => {
    await forbid();
    const source = {
      source: 'guarded',
      name: '受限',
      category: 'oidc',
      clientId: 'ob-client',
      clientSecret: 'ob-client-secret',
      authorizeUrl: `${oauth.baseUrl}/authorize`,
      tokenUrl: `${oauth.baseUrl}/token`,
      userInfoUrl: `${oauth.baseUrl}/userinfo`,
    };
    const refused = await post('/api/blade-resource/social/submit', source);
    expect(refused.json().msg).toMatch(REFUSED);
    const metadata = await post('/api/blade-resource/social/submit', {
      ...source,
      tokenUrl: 'http://metadata.google.internal/computeMetadata/v1/',
    });
    expect(metadata.json().msg).toMatch(/^不允许访问地址 metadata\.google\.internal\(云服务器元数据地址\)/);
    await allowLoopback(t);
    const saved = await post('/api/blade-resource/social/submit', source);
    expect(saved.statusCode, saved.body).toBe(200);
    const id = saved.json().data as string;

    const render = await t.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/render/guarded?tenantId=000000' });
    const { url, state } = render.json().data as { url: string; state: string };
    const back = await oauth.authorize(url);
    await forbid();
    const grant = await t.token({
      tenantId: '000000',
      source: 'guarded',
      code: back.code,
      state,
      grant_type: 'social',
      scope: 'all',
    });
    expect(grant.statusCode).toBe(400);
    expect(grant.json().error_description).toMatch(REFUSED);
    expect(oauth.tokenRequests).toEqual([]);
    await allowLoopback(t);

    const moved = await post('/api/blade-resource/social/submit', { id, tokenUrl: 'https://sso.example.com/token' });
    expect(moved.json().msg).toBe('令牌地址或协议类型已修改,请重新输入 Client Secret');
  });

  it('social sources: an unknown tenant answers as a tenant without providers', async () => {
    const created = await post('/api/blade-system/tenant/submit', {
      tenantId: '400001',
      tenantName: '无登录源',
      linkman: 'ops',
    });
    expect(created.statusCode, created.body).toBe(200);
    const sources = (tenantId: string) =>
      t.app.inject({ method: 'GET', url: `/api/blade-auth/oauth/social/sources?tenantId=${tenantId}` });
    const existing = await sources('400001');
    expect(existing.json()).toMatchObject({ success: true, data: [] });
    for (const other of ['999999', 'zz9', '../x']) {
      const res = await sources(other);
      expect(res.statusCode, other).toBe(existing.statusCode);
      expect(res.body, other).toBe(existing.body);
    }
    // The platform tenant's providers are still listed.
    expect((await sources('000000')).json().data).toContainEqual({
      source: 'guarded',
      name: '受限',
      category: 'oidc',
    });
  });
});

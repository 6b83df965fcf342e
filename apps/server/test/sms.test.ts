import { Writable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmsCategory } from '@mes/contracts';
import { developmentProvider } from '../src/modules/providers/sms/development';
import { callProvider } from '../src/modules/providers/sms/provider';
import { secretBoxFor } from '../src/platform/crypto/secret-box';
import { OutboundPolicy } from '../src/platform/net/outbound-policy';
import { sms } from '../src/platform/db/schema';
import { signInWithScopes } from './support/scoped-user';
import {
  startAliyunServer,
  startQiniuServer,
  startSilentServer,
  startTencentServer,
  startYunpianServer,
  yunpianTemplateValues,
  type ProviderServer,
} from './support/sms-provider-servers';
import { createTestApp, type TestApp } from './support/test-app';
import { allowLoopback } from './support/params';

let t: TestApp;
let admin: string;
const servers: ProviderServer[] = [];

const API = '/api/blade-resource/sms';
const SEND = `${API}/endpoint/send-message`;
const ALIYUN = { accessKey: 'LTAI5tAliyunKey0001', secretKey: 'aliyun-secret-0001' };
const TENCENT = { accessKey: 'AKIDTencentSecretId0001', secretKey: 'tencent-secret-0001' };
const QINIU = { accessKey: 'QiniuAccessKey-0001', secretKey: 'qiniu-secret-0001' };
const YUNPIAN_KEY = 'yunpian-apikey-0001';

beforeAll(async () => {
  t = await createTestApp();
  await allowLoopback(t);
  admin = (await t.signIn()).access_token;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await t.close();
});

const get = (url: string, token = admin) => t.as(token, { method: 'GET', url });
const post = (url: string, payload: Record<string, unknown>, token = admin) =>
  t.as(token, { method: 'POST', url, payload });

const storedRow = async (id: string) => (await t.ctx.db.select().from(sms).where(eq(sms.id, id)))[0];

/** Saves a configuration and returns its id (fails the test on refusal). */
async function saveConfig(body: Record<string, unknown>): Promise<string> {
  const res = await post(`${API}/submit`, { templateId: 'SMS_0001', ...body });
  if (res.statusCode !== 200) throw new Error(`submit failed: ${res.body}`);
  return res.json().data as string;
}

async function enabledConfig(body: Record<string, unknown>): Promise<string> {
  const id = await saveConfig(body);
  expect((await post(`${API}/enable?id=${id}`, {})).json()).toMatchObject({ success: true });
  return id;
}

const send = (code: string, phones: string, params = '{"code":"123456"}', token = admin) =>
  post(SEND, { code, phones, params }, token);

describe('SMS configurations', () => {
  let id: string;

  it('stores the secret key encrypted and never returns it; the access key only masked', async () => {
    id = await saveConfig({ category: SmsCategory.aliyun, smsCode: 'ali', signName: '测试签名', ...ALIYUN });
    const row = await storedRow(id);
    expect(row?.secretKey).toMatch(/^enc:v1:/);
    expect(row?.secretKey).not.toContain(ALIYUN.secretKey);
    expect(secretBoxFor(t.ctx.dataDir).open(row?.secretKey as string)).toBe(ALIYUN.secretKey);
    expect(row?.accessKey).toBe(ALIYUN.accessKey);
    expect(row?.status).toBe(1);

    const list = await get(`${API}/list?size=100`);
    const detail = await get(`${API}/detail?id=${id}`);
    for (const res of [list, detail]) {
      expect(res.body).not.toContain(ALIYUN.secretKey);
      expect(res.body).not.toContain(ALIYUN.accessKey);
      expect(res.body).not.toContain('enc:v1:');
    }
    expect(detail.json().data).toMatchObject({ smsCode: 'ali', accessKey: 'LTAI****0001', status: 1 });
    expect(detail.json().data).not.toHaveProperty('secretKey');
    expect(list.json().data.records[0]).not.toHaveProperty('secretKey');

    const exported = await get(`${API}/export`);
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    book.worksheets[0]?.eachRow((r) => r.eachCell((c) => void cells.push(String(c.value))));
    expect(cells).toContain('LTAI****0001');
    expect(cells.join('|')).not.toContain(ALIYUN.secretKey);
    expect(cells.join('|')).not.toContain(ALIYUN.accessKey);
  });

  it('keeps the stored keys when the masked access key and an empty secret come back', async () => {
    const before = await storedRow(id);
    const res = await post(`${API}/submit`, { id, accessKey: 'LTAI****0001', secretKey: '', remark: '更新' });
    expect(res.json()).toMatchObject({ success: true, msg: '更新成功' });
    const after = await storedRow(id);
    expect(after?.accessKey).toBe(ALIYUN.accessKey);
    expect(after?.secretKey).toBe(before?.secretKey);
    expect(after?.remark).toBe('更新');
    // A new secret replaces it, encrypted.
    await post(`${API}/submit`, { id, secretKey: 'aliyun-secret-new' });
    expect(secretBoxFor(t.ctx.dataDir).open((await storedRow(id))?.secretKey as string)).toBe('aliyun-secret-new');
    await post(`${API}/submit`, { id, secretKey: ALIYUN.secretKey });
  });

  it('refuses an unknown provider and a configuration its provider cannot send with, storing nothing', async () => {
    const count = async () => (await t.ctx.db.select().from(sms).where(eq(sms.isDeleted, 0))).length;
    const before = await count();
    const unknown = await post(`${API}/submit`, { category: 9, smsCode: 'x9', templateId: 'T', secretKey: 's' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('不支持的短信服务商: 9');
    const noApp = await post(`${API}/submit`, {
      category: SmsCategory.tencent,
      smsCode: 'tx-incomplete',
      templateId: '1',
      signName: 'S',
      ...TENCENT,
    });
    expect(noApp.json().msg).toBe('请输入应用ID');
    const noKeys = await post(`${API}/submit`, { category: SmsCategory.aliyun, smsCode: 'a2', templateId: 'T' });
    expect(noKeys.json().msg).toBe('请输入AccessKey');
    const yunpianNoKey = await post(`${API}/submit`, { category: SmsCategory.yunpian, smsCode: 'y2', templateId: '1' });
    expect(yunpianNoKey.json().msg).toBe('请输入SecretKey');
    // Changing an existing row to an unknown provider is refused too.
    const change = await post(`${API}/submit`, { id, category: 42 });
    expect(change.json().msg).toBe('不支持的短信服务商: 42');
    expect((await storedRow(id))?.category).toBe(SmsCategory.aliyun);
    expect(await count()).toBe(before);
  });

  it('enables exactly one configuration of the tenant', async () => {
    const other = await saveConfig({ category: SmsCategory.development, smsCode: 'dev-enable' });
    const statuses = async () =>
      Object.fromEntries(
        (
          await t.ctx.db
            .select()
            .from(sms)
            .where(and(eq(sms.tenantId, '000000'), eq(sms.isDeleted, 0)))
        ).map((r) => [r.id, r.status]),
      );
    expect((await post(`${API}/enable?id=${id}`, {})).json()).toMatchObject({ success: true, msg: '启用成功' });
    let s = await statuses();
    expect(s[id]).toBe(2);
    expect(Object.values(s).filter((v) => v === 2)).toHaveLength(1);
    await post(`${API}/enable?id=${other}`, {});
    s = await statuses();
    expect(s[other]).toBe(2);
    expect(s[id]).toBe(1);
    expect(Object.values(s).filter((v) => v === 2)).toHaveLength(1);
    expect((await get(`${API}/detail?id=${other}`)).json().data.status).toBe(2);
  });
});

describe('send-message: bad input', () => {
  let aliyun: ProviderServer;

  beforeAll(async () => {
    aliyun = await startAliyunServer(ALIYUN);
    servers.push(aliyun);
    await saveConfig({
      category: SmsCategory.aliyun,
      smsCode: 'ali-disabled',
      signName: 'S',
      endpoint: aliyun.url,
      ...ALIYUN,
    });
  });

  it('needs a code naming an existing, enabled configuration of the caller’s tenant', async () => {
    expect((await post(SEND, { phones: '13800000000' })).json().msg).toBe('缺少必要的请求参数: code');
    const unknown = await send('no-such-config', '13800000000');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().msg).toBe('短信配置不存在: no-such-config');
    const disabled = await send('ali-disabled', '13800000000');
    expect(disabled.statusCode).toBe(400);
    expect(disabled.json().msg).toBe('短信配置未启用: ali-disabled');
    expect(aliyun.accepted.length + aliyun.refused.length).toBe(0);
  });

  it('checks phones and template parameters before anything is sent', async () => {
    expect((await send('ali-disabled', '')).json().msg).toBe('请输入接收短信的手机号');
    expect((await send('ali-disabled', '13800000000,123')).json().msg).toBe('手机号格式不正确: 123');
    expect((await send('ali-disabled', '23800000000')).json().msg).toBe('手机号格式不正确: 23800000000');
    const many = Array.from({ length: 201 }, (_, i) => `138${String(i).padStart(8, '0')}`).join(',');
    expect((await send('ali-disabled', many)).json().msg).toBe('一次最多发送 200 个手机号');
    const badJson = await send('ali-disabled', '13800000000', '{code:1}');
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().msg).toBe('模板参数应为 JSON 对象,例如 {"code":"1234"}');
    expect((await send('ali-disabled', '13800000000', '[1,2]')).json().msg).toBe(
      '模板参数应为 JSON 对象,例如 {"code":"1234"}',
    );
    expect((await send('ali-disabled', '13800000000', '{"code":{"a":1}}')).json().msg).toBe(
      '模板参数 code 的值应为文本或数字',
    );
    expect(aliyun.accepted.length + aliyun.refused.length).toBe(0);
  });

  it('needs the sms:send API scope', async () => {
    const plain = await signInWithScopes(t, { account: 'sms-reader', codes: ['sms:read'] });
    expect((await send('ali-disabled', '13800000000', '{}', plain)).statusCode).toBe(403);
    const sender = await signInWithScopes(t, { account: 'sms-sender', codes: ['sms:send'] });
    expect((await send('no-such-config', '13800000000', '{}', sender)).json().msg).toBe(
      '短信配置不存在: no-such-config',
    );
  });
});

describe('providers against local servers that verify the signature', () => {
  it('Alibaba Cloud: signed SendSms with phones, sign name, template and parameters', async () => {
    const server = await startAliyunServer(ALIYUN);
    servers.push(server);
    await enabledConfig({
      category: SmsCategory.aliyun,
      smsCode: 'ali-live',
      templateId: 'SMS_154950909',
      signName: '阿里云短信测试',
      regionId: 'cn-shanghai',
      endpoint: server.url,
      ...ALIYUN,
    });
    const res = await send('ali-live', '13800000001,13800000002', '{"code":"654321","product":"MES 控制台"}');
    expect(res.json()).toMatchObject({ success: true, msg: '短信发送成功' });
    expect(server.refused).toEqual([]);
    expect(server.accepted[0]?.fields).toMatchObject({
      Action: 'SendSms',
      PhoneNumbers: '13800000001,13800000002',
      SignName: '阿里云短信测试',
      TemplateCode: 'SMS_154950909',
      RegionId: 'cn-shanghai',
    });
    expect(JSON.parse(server.accepted[0]?.fields.TemplateParam as string)).toEqual({
      code: '654321',
      product: 'MES 控制台',
    });

    server.failNext({
      status: 400,
      body: { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发小时级流控Permits:5', RequestId: 'r' },
    });
    const limited = await send('ali-live', '13800000001');
    expect(limited.statusCode).toBe(400);
    expect(limited.json().msg).toBe('阿里云短信发送失败: isv.BUSINESS_LIMIT_CONTROL: 触发小时级流控Permits:5');
  });

  it('Alibaba Cloud: a wrong secret fails the provider’s signature check, and the reason is shown', async () => {
    const server = await startAliyunServer(ALIYUN);
    servers.push(server);
    await enabledConfig({
      category: SmsCategory.aliyun,
      smsCode: 'ali-wrong-secret',
      signName: 'S',
      endpoint: server.url,
      accessKey: ALIYUN.accessKey,
      secretKey: 'not-the-secret',
    });
    const res = await send('ali-wrong-secret', '13800000001');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(
      '阿里云短信发送失败: SignatureDoesNotMatch: Specified signature is not matched with our calculation.',
    );
    expect(res.body).not.toContain('not-the-secret');
    expect(server.accepted).toEqual([]);
  });

  it('Tencent Cloud: TC3-HMAC-SHA256 SendSms with E.164 numbers, SmsSdkAppId and ordered parameters', async () => {
    const server = await startTencentServer(TENCENT);
    servers.push(server);
    await enabledConfig({
      category: SmsCategory.tencent,
      smsCode: 'tx-live',
      templateId: '449739',
      signName: '腾讯云测试',
      appId: '1400006666',
      regionId: 'ap-beijing',
      endpoint: server.url,
      ...TENCENT,
    });
    const res = await send('tx-live', '13800000003,13800000004', '{"2":"5","1":"246810"}');
    expect(res.json()).toMatchObject({ success: true });
    expect(server.refused).toEqual([]);
    const got = server.accepted[0];
    expect(got?.headers['x-tc-region']).toBe('ap-beijing');
    expect(got?.fields).toEqual({
      PhoneNumberSet: ['+8613800000003', '+8613800000004'],
      SmsSdkAppId: '1400006666',
      SignName: '腾讯云测试',
      TemplateId: '449739',
      TemplateParamSet: ['246810', '5'],
    });

    // A request that succeeds while one number is refused is a failure for that number.
    server.failNext({
      status: 200,
      body: {
        Response: {
          SendStatusSet: [
            { PhoneNumber: '+8613800000003', Code: 'Ok', Message: 'send success' },
            {
              PhoneNumber: '+8613800000004',
              Code: 'LimitExceeded.PhoneNumberDailyLimit',
              Message: 'the number of sms messages sent from a single mobile number every day exceeds the upper limit',
            },
          ],
          RequestId: 'r',
        },
      },
    });
    const partial = await send('tx-live', '13800000003,13800000004');
    expect(partial.statusCode).toBe(400);
    expect(partial.json().msg).toContain('腾讯云短信发送失败: +8613800000004 LimitExceeded.PhoneNumberDailyLimit');

    server.failNext({
      status: 200,
      body: {
        Response: {
          Error: {
            Code: 'FailedOperation.TemplateIncorrectOrUnapproved',
            Message: '模版未审批或请求的内容与审核通过的模版内容不匹配',
          },
          RequestId: 'r',
        },
      },
    });
    const refused = await send('tx-live', '13800000003');
    expect(refused.json().msg).toBe(
      '腾讯云短信发送失败: FailedOperation.TemplateIncorrectOrUnapproved: 模版未审批或请求的内容与审核通过的模版内容不匹配',
    );
  });

  it('Tencent Cloud: a wrong SecretKey is refused by the signature check', async () => {
    const server = await startTencentServer(TENCENT);
    servers.push(server);
    await enabledConfig({
      category: SmsCategory.tencent,
      smsCode: 'tx-wrong',
      signName: 'S',
      appId: '1400006666',
      endpoint: server.url,
      accessKey: TENCENT.accessKey,
      secretKey: 'wrong',
    });
    const res = await send('tx-wrong', '13800000003');
    expect(res.json().msg).toBe(
      '腾讯云短信发送失败: AuthFailure.SignatureFailure: The provided credentials could not be validated.',
    );
    expect(server.accepted).toEqual([]);
  });

  it('Qiniu: POST /v1/message with a Qiniu token, template id, mobiles and parameters', async () => {
    const server = await startQiniuServer(QINIU);
    servers.push(server);
    await enabledConfig({
      category: SmsCategory.qiniu,
      smsCode: 'qn-live',
      templateId: '1197365316498522112',
      endpoint: server.url,
      ...QINIU,
    });
    const res = await send('qn-live', '13800000005', '{"code":"135790"}');
    expect(res.json()).toMatchObject({ success: true });
    expect(server.refused).toEqual([]);
    expect(server.accepted[0]?.fields).toEqual({
      template_id: '1197365316498522112',
      mobiles: ['13800000005'],
      parameters: { code: '135790' },
    });

    server.failNext({ status: 400, body: { error: 'TemplateNotFound', message: 'template not found' } });
    const refused = await send('qn-live', '13800000005');
    expect(refused.json().msg).toBe('七牛云短信发送失败: TemplateNotFound: template not found');

    await post(`${API}/submit`, { id: await idOf('qn-live'), secretKey: 'wrong' });
    const wrongKey = await send('qn-live', '13800000005');
    expect(wrongKey.json().msg).toBe('七牛云短信发送失败: bad token');
  });

  it('Yunpian: tpl_single_send for one number, tpl_batch_send for several, APIKEY from SecretKey', async () => {
    const server = await startYunpianServer(YUNPIAN_KEY);
    servers.push(server);
    await enabledConfig({
      category: SmsCategory.yunpian,
      smsCode: 'yp-live',
      templateId: '1',
      endpoint: server.url,
      secretKey: YUNPIAN_KEY,
    });
    expect((await send('yp-live', '13800000006', '{"code":"1234","company":"云片&网"}')).json()).toMatchObject({
      success: true,
    });
    expect(server.refused).toEqual([]);
    const single = server.accepted[0];
    expect(single?.path).toBe('/v2/sms/tpl_single_send.json');
    expect(single?.fields).toMatchObject({ mobile: '13800000006', tpl_id: '1' });
    expect(yunpianTemplateValues(single?.fields.tpl_value as string)).toEqual({ code: '1234', company: '云片&网' });

    expect((await send('yp-live', '13800000006,13800000007')).json()).toMatchObject({ success: true });
    expect(server.accepted[1]?.path).toBe('/v2/sms/tpl_batch_send.json');
    expect(server.accepted[1]?.fields.mobile).toBe('13800000006,13800000007');

    server.failNext({
      status: 400,
      body: {
        http_status_code: 400,
        code: 8,
        msg: '同一手机号30秒内重复提交相同的内容',
        detail: '请检查是否同一手机号在30秒内重复提交相同的内容',
      },
    });
    const refused = await send('yp-live', '13800000006');
    expect(refused.json().msg).toBe(
      '云片短信发送失败: 8: 同一手机号30秒内重复提交相同的内容, 请检查是否同一手机号在30秒内重复提交相同的内容',
    );

    await post(`${API}/submit`, { id: await idOf('yp-live'), secretKey: 'wrong' });
    expect((await send('yp-live', '13800000006')).json().msg).toBe(
      '云片短信发送失败: -1: 非法的apikey, 请检查的apikey是否正确',
    );
  });

  it('a provider that cannot be reached is a clear 400', async () => {
    const closed = await startSilentServer();
    const url = closed.url;
    await closed.close();
    await enabledConfig({
      category: SmsCategory.yunpian,
      smsCode: 'yp-down',
      templateId: '1',
      endpoint: url,
      secretKey: 'k',
    });
    const res = await send('yp-down', '13800000006');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toMatch(/^云片短信发送失败: 无法连接服务商接口\(ECONNREFUSED\)$/);
  });

  it('a provider that does not answer in time is a clear failure', async () => {
    const silent = await startSilentServer();
    try {
      const context = {
        now: () => Date.now(),
        log: pino({ level: 'silent' }),
        timeoutMs: 200,
        outbound: OutboundPolicy.parse('127.0.0.1'),
      };
      await expect(
        callProvider(
          { zh: '云片', en: 'Yunpian' },
          new URL(`${silent.url}/v2/sms/tpl_single_send.json`),
          { headers: {}, body: '' },
          context,
        ),
      ).rejects.toMatchObject({ code: 400, message: '云片短信发送失败: 服务商接口超时(0.2秒)' });
    } finally {
      await silent.close();
    }
  });
});

describe('development provider', () => {
  it('writes phones, template and parameters to the log at info level, tagged, and sends nothing', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const log = pino({ level: 'info' }, sink);
    await developmentProvider.send(
      {
        category: SmsCategory.development,
        smsCode: 'dev',
        templateId: 'SIGN_IN',
        signName: 'MES',
        accessKey: '',
        secretKey: '',
        appId: '',
        regionId: '',
        endpoint: '',
      },
      { phones: ['13800000009'], params: { code: '024680' } },
      { now: () => Date.now(), log, timeoutMs: 5000 },
    );
    await new Promise((r) => setImmediate(r));
    const line = lines.find((l) => l.tag === 'sms-development');
    expect(line).toMatchObject({
      level: 30,
      phones: ['13800000009'],
      templateId: 'SIGN_IN',
      params: { code: '024680' },
    });
    expect(String(line?.msg)).toContain('not delivered');
  });

  it('answers send-message through the route', async () => {
    await enabledConfig({ category: SmsCategory.development, smsCode: 'dev-live', templateId: 'SIGN_IN' });
    expect((await send('dev-live', '13800000009')).json()).toMatchObject({ success: true, msg: '短信发送成功' });
  });
});

async function idOf(smsCode: string): Promise<string> {
  const [row] = await t.ctx.db
    .select({ id: sms.id })
    .from(sms)
    .where(and(eq(sms.smsCode, smsCode), eq(sms.isDeleted, 0)));
  return row?.id as string;
}

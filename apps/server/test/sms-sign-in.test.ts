import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthMessages, EnableStatus, SmsCategory, type TokenResponse } from '@mes/contracts';
import { hashPassword } from '../src/platform/auth/passwords';
import { secretBoxFor } from '../src/platform/crypto/secret-box';
import { nextId } from '../src/platform/db/ids';
import { role, sms, user } from '../src/platform/db/schema';
import { DEPT_IDS } from '../src/seed/seed-data';
import { startYunpianServer, yunpianTemplateValues, type ProviderServer } from './support/sms-provider-servers';
import { createTestApp, md5, type TestApp } from './support/test-app';
import { allowLoopback } from './support/params';

/**
 * Phone sign-in: POST /api/alisms/send, then grant_type=sms. The tenants' SMS configurations point
 * at a local Yunpian server, whose received requests carry the codes.
 */
let t: TestApp;
let yunpian: ProviderServer;
const APIKEY = 'yunpian-sign-in-key';
const TENANT_B = '100001';
const roles: Record<string, string> = {};
let nextIp = 1;

beforeAll(async () => {
  t = await createTestApp();
  await allowLoopback(t);
  yunpian = await startYunpianServer(APIKEY);
  const admin = (await t.signIn()).access_token;
  const created = await t.as(admin, {
    method: 'POST',
    url: '/api/blade-system/tenant/submit',
    payload: { tenantId: TENANT_B, tenantName: '租户B', linkman: 'ops' },
  });
  expect(created.json()).toMatchObject({ success: true });
  for (const tenantId of ['000000', TENANT_B]) {
    roles[tenantId] = nextId();
    await t.ctx.db
      .insert(role)
      .values({ id: roles[tenantId] as string, tenantId, roleName: '短信用户', roleAlias: 'sms_user' });
    await t.ctx.db.insert(sms).values({
      id: nextId(),
      tenantId,
      category: SmsCategory.yunpian,
      smsCode: 'sign-in',
      templateId: '42',
      secretKey: secretBoxFor(t.ctx.dataDir).seal(APIKEY),
      endpoint: yunpian.url,
      status: EnableStatus.enabled,
    });
  }
}, 120_000);
afterAll(async () => {
  await yunpian.close();
  await t.close();
});

async function addUser(account: string, phone: string, options: { tenantId?: string; status?: number } = {}) {
  const tenantId = options.tenantId ?? '000000';
  const id = nextId();
  await t.ctx.db.insert(user).values({
    id,
    tenantId,
    account,
    password: await hashPassword(md5(`${account}-pass`)),
    name: account,
    realName: account,
    phone,
    roleId: roles[tenantId] as string,
    deptId: tenantId === '000000' ? DEPT_IDS.east : '0',
    status: options.status ?? 1,
  });
  return id;
}

/** Each call comes from its own address unless told, so the per-address budget stays out of the way. */
function sendCode(phone: string, options: { tenantId?: string; header?: string; ip?: string } = {}) {
  const payload: Record<string, string> = { phone };
  if (options.tenantId) payload.tenantId = options.tenantId;
  return t.app.inject({
    method: 'POST',
    url: '/api/alisms/send',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.header ? { 'tenant-id': options.header } : {}),
    },
    payload: new URLSearchParams(payload).toString(),
    remoteAddress: options.ip ?? `10.0.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`,
  });
}

const smsGrant = (phone: string, code: string, tenantId = '000000') =>
  t.token({ tenantId, phone, code, grant_type: 'sms', scope: 'all' }, { 'tenant-id': tenantId });

/** The code in the last message the provider accepted for this phone. */
function lastCode(phone: string): string {
  const request = [...yunpian.accepted].reverse().find((r) => r.fields.mobile === phone);
  if (!request) throw new Error(`no SMS to ${phone}`);
  return yunpianTemplateValues(request.fields.tpl_value as string).code as string;
}
const sentTo = (phone: string) => yunpian.accepted.filter((r) => r.fields.mobile === phone).length;
const minutes = (n: number) => n * 60_000;

describe('POST /api/alisms/send', () => {
  it('checks the phone as the spec says: empty, length, format', async () => {
    for (const [phone, msg] of [
      ['', '手机号不能为空'],
      ['1380000000', '手机号长度不为11位'],
      ['138000000001', '手机号长度不为11位'],
      ['23800000000', '手机号格式不正确'],
      ['1380000000a', '手机号格式不正确'],
    ] as const) {
      const res = await sendCode(phone);
      expect(res.statusCode, phone).toBe(400);
      expect(res.json(), phone).toMatchObject({ success: false, msg });
    }
  });

  it('sends a six-digit code to a phone with an account, through the tenant’s enabled configuration', async () => {
    await addUser('phone-a', '13900000001');
    const res = await sendCode('13900000001');
    expect(res.json()).toMatchObject({ code: 200, success: true, msg: '验证码已发送' });
    expect(sentTo('13900000001')).toBe(1);
    expect(lastCode('13900000001')).toMatch(/^\d{6}$/);
    expect(yunpian.accepted.at(-1)?.fields.tpl_id).toBe('42');
  });

  it('answers a phone without an account the same way, and sends nothing', async () => {
    const before = yunpian.accepted.length;
    const res = await sendCode('13900000999');
    expect(res.json()).toMatchObject({ code: 200, success: true, msg: '验证码已发送' });
    expect(yunpian.accepted.length).toBe(before);
  });

  it('allows one code per phone per 60 seconds', async () => {
    await addUser('p-cool', '13900000002');
    expect((await sendCode('13900000002')).statusCode).toBe(200);
    const again = await sendCode('13900000002');
    expect(again.statusCode).toBe(429);
    expect(again.json().msg).toBe('验证码发送过于频繁,请60秒后再试');
    // A phone without an account is held back the same way.
    await sendCode('13900000998');
    expect((await sendCode('13900000998')).json().msg).toBe('验证码发送过于频繁,请60秒后再试');
    t.clock.advance(61_000);
    expect((await sendCode('13900000002')).statusCode).toBe(200);
    expect(sentTo('13900000002')).toBe(2);
  });

  it('limits the codes asked for from one address to 10 an hour', async () => {
    const ip = '192.0.2.7';
    for (let i = 0; i < 10; i++) {
      expect((await sendCode(`1370000000${i}`, { ip })).statusCode, `request ${i + 1}`).toBe(200);
    }
    const eleventh = await sendCode('13700000010', { ip });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().msg).toBe('验证码发送次数过多,请稍后再试');
    // The refused phone is not held back, another address is not affected, and the hour passes.
    expect((await sendCode('13700000010', { ip: '192.0.2.8' })).statusCode).toBe(200);
    t.clock.advance(minutes(61));
    expect((await sendCode('13700000011', { ip })).statusCode).toBe(200);
  });

  it('says 短信服务未配置 when the tenant has no enabled configuration', async () => {
    const tenantId = '100002';
    const res = await sendCode('13900000003', { tenantId });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('短信服务未配置,请联系管理员');
    // Nothing was sent, so the phone may ask again straight away.
    expect((await sendCode('13900000003', { tenantId })).json().msg).toBe('短信服务未配置,请联系管理员');
  });

  it('surfaces a provider failure, keeps no code and lets the phone ask again at once', async () => {
    await addUser('p-fail', '13900000004');
    yunpian.failNext({
      status: 400,
      body: { http_status_code: 400, code: 33, msg: '验证码类短信发送频率过快', detail: '' },
    });
    const res = await sendCode('13900000004');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('云片短信发送失败: 33: 验证码类短信发送频率过快');
    const failedCode = lastCode('13900000004');
    expect((await smsGrant('13900000004', failedCode)).json().error_description).toBe('验证码不正确或已过期');
    expect((await sendCode('13900000004')).statusCode).toBe(200);
  });
});

describe('grant_type=sms', () => {
  it('signs in with the code once; the same code again is refused', async () => {
    const userId = await addUser('phone-ok', '13900000010');
    await sendCode('13900000010');
    const code = lastCode('13900000010');
    const res = await smsGrant('13900000010', code);
    expect(res.statusCode).toBe(200);
    const body = res.json<TokenResponse>();
    expect(body).toMatchObject({ token_type: 'bearer', tenant_id: '000000', user_id: userId, account: 'phone-ok' });
    const info = await t.as(body.access_token, { method: 'GET', url: '/api/blade-auth/oauth/user-info' });
    expect(info.json().data).toMatchObject({ account: 'phone-ok' });

    const again = await smsGrant('13900000010', code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error_code: 400, error_description: '验证码不正确或已过期' });
  });

  it('takes the tenant from the Tenant-Id header when tenantId is absent', async () => {
    await addUser('phone-b', '13900000011', { tenantId: TENANT_B });
    await sendCode('13900000011', { header: TENANT_B });
    const res = await t.token(
      { phone: '13900000011', code: lastCode('13900000011'), grant_type: 'sms', scope: 'all' },
      { 'tenant-id': TENANT_B },
    );
    expect(res.json()).toMatchObject({ tenant_id: TENANT_B, account: 'phone-b' });
  });

  it('refuses a code from another tenant', async () => {
    await addUser('p-both-a', '13900000012');
    await addUser('p-both-b', '13900000012', { tenantId: TENANT_B });
    await sendCode('13900000012');
    const code = lastCode('13900000012');
    expect((await smsGrant('13900000012', code, TENANT_B)).json().error_description).toBe('验证码不正确或已过期');
    expect((await smsGrant('13900000012', code)).json()).toMatchObject({ account: 'p-both-a' });
  });

  it('expires a code after 5 minutes', async () => {
    await addUser('p-late', '13900000013');
    await sendCode('13900000013');
    const code = lastCode('13900000013');
    t.clock.advance(minutes(5) + 1000);
    expect((await smsGrant('13900000013', code)).json().error_description).toBe('验证码不正确或已过期');
  });

  it('kills a code after 5 wrong tries', async () => {
    await addUser('p-guess', '13900000014');
    await sendCode('13900000014');
    const code = lastCode('13900000014');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      expect((await smsGrant('13900000014', wrong)).json().error_description, `try ${i}`).toBe('验证码不正确或已过期');
    }
    expect((await smsGrant('13900000014', wrong)).json().error_description).toBe('验证码错误次数过多,请重新获取');
    expect((await smsGrant('13900000014', code)).json().error_description).toBe('验证码不正确或已过期');
    // A new code starts with a clean count.
    t.clock.advance(61_000);
    await sendCode('13900000014');
    expect((await smsGrant('13900000014', wrong)).json().error_description).toBe('验证码不正确或已过期');
    expect((await smsGrant('13900000014', lastCode('13900000014'))).statusCode).toBe(200);
  });

  it('checks phone and code before anything else', async () => {
    expect((await smsGrant('', '123456')).json().error_description).toBe('手机号不能为空');
    expect((await smsGrant('139', '123456')).json().error_description).toBe('手机号长度不为11位');
    expect((await smsGrant('13900000010', '')).json().error_description).toBe('请输入验证码');
    expect((await smsGrant('13900000777', '123456')).json().error_description).toBe('验证码不正确或已过期');
  });

  it('says why the phone’s account cannot sign in, once the code proved the phone', async () => {
    const expectRefusal = async (phone: string, description: string) => {
      t.clock.advance(61_000);
      await sendCode(phone);
      const res = await smsGrant(phone, lastCode(phone));
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().error_description, phone).toBe(description);
    };
    await addUser('p-pending', '13900000020', { status: 0 });
    await expectRefusal('13900000020', '账号正在等待管理员审核,请审核通过后再登录');
    await addUser('p-disabled', '13900000021', { status: 2 });
    await expectRefusal('13900000021', AuthMessages.accountDisabled);
    await addUser('p-twice-1', '13900000022');
    await addUser('p-twice-2', '13900000022');
    await expectRefusal('13900000022', '该手机号绑定了多个账号,请使用账号密码登录');

    // The account went away between the code and the sign-in.
    const id = await addUser('p-gone', '13900000023');
    await sendCode('13900000023');
    const code = lastCode('13900000023');
    await t.ctx.db.update(user).set({ isDeleted: 1 }).where(eq(user.id, id));
    expect((await smsGrant('13900000023', code)).json().error_description).toBe('该手机号未绑定账号');
  });
});

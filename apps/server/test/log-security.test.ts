import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogResource,
  errorLogResource,
  loginLogResource,
  operationLogResource,
  usualLogResource,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { apiLog, errorLog, loginLog, operationLog, param, usualLog } from '../src/platform/db/schema';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Every log list and detail against the attacks SpringBlade's log list fell to (CVE-2020-16165:
 * SQL through the sort) and against reading another tenant's rows: only declared filters and
 * sorts are accepted, nothing reaches SQL, and a tenant administrator sees only the tenant's logs.
 */
let t: TestApp;
let platformAdmin: string;
let adminA: string;
let adminB: string;
const MARKER = 'MARKER_A_LOG';
/** One row of tenant A per log, by API prefix. */
const markerIds: Record<string, string> = {};

const LOGS = [apiLogResource, usualLogResource, errorLogResource, loginLogResource, operationLogResource];

async function get(token: string, url: string) {
  const res = await t.as(token, { method: 'GET', url });
  return { status: res.statusCode, body: res.json(), text: res.body };
}

beforeAll(async () => {
  t = await createTestApp();
  platformAdmin = (await t.signIn()).access_token;
  for (const [tenantId, tenantName] of [
    ['100001', '租户A'],
    ['100002', '租户B'],
  ]) {
    const res = await t.as(platformAdmin, {
      method: 'POST',
      url: '/api/blade-system/tenant/submit',
      payload: { tenantId, tenantName, linkman: 'ops' },
    });
    expect(res.statusCode).toBe(200);
  }
  const [password] = await t.ctx.db
    .select({ value: param.paramValue })
    .from(param)
    .where(eq(param.paramKey, 'tenant.default.password'));
  const signedInA = await t.signIn('admin', password?.value ?? '', '100001');
  adminA = signedInA.access_token;
  adminB = (await t.signIn('admin', password?.value ?? '', '100002')).access_token;

  // Tenant A's own traces in every log, each carrying the marker.
  await t.as(adminA, { method: 'GET', url: `/api/blade-system/post/list?postName=${MARKER}` });
  const post = await t.as(adminA, {
    method: 'POST',
    url: '/api/blade-system/post/submit',
    payload: { category: 1, postCode: 'mk', postName: MARKER },
  });
  expect(post.statusCode).toBe(200);
  const unlock = await t.as(adminA, { method: 'POST', url: `/api/blade-user/unlock?userIds=${signedInA.user_id}` });
  expect(unlock.statusCode).toBe(200);
  t.ctx.logs.signIn({
    tenantId: '100001',
    account: MARKER,
    grantType: 'password',
    success: false,
    remoteIp: '',
    userAgent: '',
  });
  await t.ctx.logs.flush();
  const now = new Date(t.clock.now());
  await t.ctx.db.insert(errorLog).values({ id: nextId(), tenantId: '100001', message: MARKER, createTime: now });

  const first = async (
    table: typeof apiLog | typeof usualLog | typeof loginLog | typeof operationLog | typeof errorLog,
  ) => (await t.ctx.db.select({ id: table.id }).from(table).where(eq(table.tenantId, '100001')).limit(1))[0]?.id ?? '';
  markerIds[apiLogResource.api] = (
    await t.ctx.db
      .select({ id: apiLog.id })
      .from(apiLog)
      .where(sql`${apiLog.tenantId} = '100001' and ${apiLog.params} like ${`%${MARKER}%`}`)
  )[0]?.id as string;
  markerIds[usualLogResource.api] = await first(usualLog);
  markerIds[errorLogResource.api] = await first(errorLog);
  markerIds[loginLogResource.api] = await first(loginLog);
  markerIds[operationLogResource.api] = await first(operationLog);
  for (const def of LOGS) expect(markerIds[def.api], def.code).toMatch(/^\d+$/);
}, 120_000);
afterAll(() => t.close());

describe.each(LOGS.map((def) => [def.code, def] as const))('%s', (_code, def) => {
  const list = `/api${def.api}/list`;
  const detail = `/api${def.api}/detail`;

  it('refuses SQL in the sort, undeclared sorts and filters, and malformed values with 400', async () => {
    const attacks = [
      'ascs=id;drop table blade_log_api',
      'descs=(select 1)',
      'ascs=createTime desc',
      'descs=create_time,(case when 1=1 then id end)',
      'ascs=tenantId',
      'descs=params',
      'tenantId_like=000000',
      'tenant_id=000000',
      'id=1 or 1=1',
      "createBy_like=x' or '1'='1&createTime_dategt=garbage",
      'createTime_dategt=garbage',
      "createTime_datelt=2026-01-01' or '1'='1",
      'createTime_dategt=2026-13-45 99:99:99',
      'createTime_gt=1',
      'unknownField=1',
      'current=abc',
      'size=-1',
    ];
    const wrong: string[] = [];
    for (const query of attacks) {
      const res = await get(platformAdmin, `${list}?${query}`);
      if (res.status !== 400 || res.body.success !== false || typeof res.body.msg !== 'string') {
        wrong.push(`${query} → ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // The tables are still there and still answer.
    expect((await get(platformAdmin, `${list}?descs=createTime`)).status).toBe(200);
  });

  it('accepts its declared time range and sort', async () => {
    const res = await get(
      platformAdmin,
      `${list}?createTime_dategt=2000-01-01 00:00:00&createTime_datelt=2999-12-31&descs=createTime`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBeGreaterThan(0);
  });

  it('refuses a malformed detail id with 400 and another tenant’s row with 404, leaking nothing', async () => {
    for (const id of ['abc', '1 or 1=1', "1'--", '']) {
      const res = await get(adminB, `${detail}?id=${encodeURIComponent(id)}`);
      expect(res.status, id).toBe(400);
    }
    const foreign = await get(adminB, `${detail}?id=${markerIds[def.api]}`);
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain(MARKER);
  });

  it('shows tenant B’s administrator none of tenant A’s rows, tenant A’s its own, and the platform all', async () => {
    const b = await get(adminB, `${list}?size=1000`);
    expect(b.status).toBe(200);
    expect(b.text).not.toContain('100001');
    expect(b.text).not.toContain(MARKER);
    const a = await get(adminA, `${list}?size=1000`);
    expect(a.status).toBe(200);
    expect((a.body.data.records as { tenantId: string }[]).every((r) => r.tenantId === '100001')).toBe(true);
    expect((await get(adminA, `${detail}?id=${markerIds[def.api]}`)).status).toBe(200);
    const all = await get(platformAdmin, `${list}?size=1000`);
    const tenants = new Set((all.body.data.records as { tenantId: string }[]).map((r) => r.tenantId));
    expect(tenants.has('100001')).toBe(true);
    // The family's tenant filter narrows the platform's list, and gives a tenant nothing more.
    const narrowed = await get(platformAdmin, `${list}?size=1000&tenantId=100001`);
    expect((narrowed.body.data.records as { tenantId: string }[]).every((r) => r.tenantId === '100001')).toBe(true);
    expect(narrowed.body.data.total).toBeGreaterThan(0);
    const probing = await get(adminB, `${list}?size=1000&tenantId=100001`);
    expect(probing.status).toBe(200);
    expect(probing.text).not.toContain(MARKER);
    expect((await get(platformAdmin, `${detail}?id=${markerIds[def.api]}`)).status).toBe(200);
  });
});

describe('sign-in counts', () => {
  it('counts only the caller’s tenant for a tenant administrator', async () => {
    const b = await get(adminB, '/api/blade-desk/loginLog/count');
    expect(b.status).toBe(200);
    // Tenant B's admin signed in outside the login log's wiring here: tenant A's failure is not theirs.
    expect(b.body.data.today.fail).toBe(0);
    const platform = await get(platformAdmin, '/api/blade-desk/loginLog/count');
    expect(platform.body.data.today.fail).toBeGreaterThanOrEqual(1);
  });
});

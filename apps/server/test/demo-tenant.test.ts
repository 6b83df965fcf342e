import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { count, countDistinct, eq, gte, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_OFFER_PARAM,
  DEMO_PASSWORD_FILE,
  DEMO_TENANT_DISMISS_PATH,
  DEMO_TENANT_NAME,
  DEMO_TENANT_SEED_PATH,
  DEMO_TENANT_STATE_PATH,
  RecordSource,
  WarningStatus,
  type DemoSeedReply,
  type DemoTenantStatus,
  type PageResult,
  type WelcomeOverview,
} from '@mes/contracts';
import { DEMO_SIMULATED_DEVICES, readOffer, writeOffer } from '../src/modules/demo';
import { DEMO_TENANT_DEVICES } from '../src/modules/demo/demo-data';
import { ConsoleApi } from '../src/simulator/console-api';
import { provisionDevices } from '../src/simulator/provision';
import { seedDemoTenant, type DemoResult } from '../src/modules/demo/demo-steps';
import {
  article,
  car,
  dept,
  device,
  deviceCycle,
  disinfectionRecord,
  line,
  deptLine,
  param,
  product,
  recordRecall,
  telemetry,
  tenant,
  verificationRecord,
  warning,
} from '../src/platform/db/schema';
import { tenantScope } from '../src/platform/tenancy/tenant-scope';
import { signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The demo tenant (docs/demo.md): the seeding's rows, counted per kind against the database; the
 * month's records made from the month's cycles; a second run that adds nothing; the demo
 * administrator's own view; and the first-start card's routes (platform administrator only, one time).
 */
let t: TestApp;
let first: DemoResult;
let platformAdmin: string;
const DAY = 86_400_000;

const rowCount = async (table: Parameters<ReturnType<typeof tenantScope>['select']>[0], tenantId: string) => {
  const [row] = await tenantScope(t.ctx.db, tenantId).select(table, { n: count() }).where();
  return Number(row?.n ?? 0);
};

async function kinds(tenantId: string): Promise<Record<string, number>> {
  return {
    depts: await rowCount(dept, tenantId),
    lines: await rowCount(line, tenantId),
    stops: await rowCount(deptLine, tenantId),
    cars: await rowCount(car, tenantId),
    articles: await rowCount(article, tenantId),
    products: await rowCount(product, tenantId),
    devices: await rowCount(device, tenantId),
    cycles: await rowCount(deviceCycle, tenantId),
    records: await rowCount(disinfectionRecord, tenantId),
    telemetry: await rowCount(telemetry, tenantId),
    warnings: await rowCount(warning, tenantId),
    verifications: await rowCount(verificationRecord, tenantId),
    recalls: await rowCount(recordRecall, tenantId),
  };
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  platformAdmin = (await t.signIn()).access_token;
  const started = performance.now();
  first = await seedDemoTenant(t.app, t.ctx, { now: Date.now() });
  // The figure docs/demo.md reports: the whole seeding of a fresh tenant.
  console.log(`demo tenant seeded in ${Math.round(performance.now() - started)} ms`, first.made);
}, 240_000);

afterAll(async () => {
  await t?.close();
});

describe('seed:demo', () => {
  it('makes the tenant with its departments, lines, cars, articles, products and devices', async () => {
    expect(first.createdTenant).toBe(true);
    expect(first.tenantId).toBe('100001');
    const [row] = await tenantScope(t.ctx.db, first.tenantId).select(tenant, { name: tenant.tenantName }).where();
    expect(row?.name).toBe(DEMO_TENANT_NAME);
    const k = await kinds(first.tenantId);
    // The root made with the tenant, 2 bases, 6 clinics.
    expect(k).toMatchObject({ depts: 9, lines: 3, stops: 16, cars: 3, articles: 12, products: 3, devices: 10 });
    const byCategory = await tenantScope(t.ctx.db, first.tenantId)
      .select(dept, { category: dept.deptCategory, n: count() })
      .where()
      .groupBy(dept.deptCategory);
    expect(Object.fromEntries(byCategory.map((r) => [r.category, Number(r.n)]))).toEqual({ 1: 1, 4: 2, 5: 6 });
    // Every device stands in a clinic or a base, and every car's line is of its base.
    const homeless = await tenantScope(t.ctx.db, first.tenantId)
      .select(device, { n: count() })
      .where(sql`${device.deptId} is null`);
    expect(Number(homeless[0]?.n)).toBe(0);
  });

  it('stores a month of cycles, and the records job makes a record of every one of them', async () => {
    const scope = tenantScope(t.ctx.db, first.tenantId);
    const [cycles] = await scope
      .select(deviceCycle, {
        n: count(),
        days: countDistinct(sql`(${deviceCycle.endTime} at time zone 'Asia/Shanghai')::date`),
        devices: countDistinct(deviceCycle.deviceCode),
        failed: sql<number>`count(*) filter (where ${deviceCycle.result} <> 1)`,
      })
      .where();
    expect(Number(cycles?.n)).toBeGreaterThan(1000);
    expect(Number(cycles?.days)).toBeGreaterThanOrEqual(30);
    expect(Number(cycles?.devices)).toBe(10);
    expect(Number(cycles?.failed)).toBeGreaterThan(0);
    // Records of cycles older than the job's own week: the backfill's wider window.
    const [records] = await scope
      .select(disinfectionRecord, {
        n: count(),
        cycles: countDistinct(disinfectionRecord.cycleId),
        old: sql<number>`count(*) filter (where ${disinfectionRecord.endTime} < now() - interval '20 days')`,
      })
      .where(eq(disinfectionRecord.source, RecordSource.cycle));
    expect(Number(records?.n)).toBe(Number(cycles?.n));
    expect(Number(records?.cycles)).toBe(Number(cycles?.n));
    expect(Number(records?.old)).toBeGreaterThan(0);
    // The chains the records job keeps hold.
    const verify = await t.as(platformAdmin, { method: 'GET', url: '/api/blade-business/disinfection/verify' });
    expect(verify.statusCode).toBe(200);
  });

  it('tests the sterilisers daily (BD) and weekly (biological), samples the waterlines, and recalls one failed week', async () => {
    const scope = tenantScope(t.ctx.db, first.tenantId);
    const rows = await scope
      .select(verificationRecord, {
        type: verificationRecord.verificationType,
        result: verificationRecord.result,
        device: verificationRecord.deviceCode,
        day: sql<string>`(${verificationRecord.testTime} at time zone 'Asia/Shanghai')::date::text`,
      })
      .where();
    expect(first.made.verifications).toBe(rows.length);
    const passedBd = new Set(rows.filter((r) => r.type === 1 && r.result === 1).map((r) => `${r.device} ${r.day}`));
    // Every steriliser day with a cycle has its passing BD test.
    const days = await scope
      .select(disinfectionRecord, {
        key: sql<string>`${disinfectionRecord.deviceCode} || ' ' || (${disinfectionRecord.startTime} at time zone 'Asia/Shanghai')::date::text`,
      })
      .where(eq(disinfectionRecord.recordType, 2));
    expect(days.length).toBeGreaterThan(0);
    expect(days.filter((d) => !passedBd.has(d.key))).toEqual([]);
    expect(rows.filter((r) => r.type === 4).length).toBeGreaterThanOrEqual(9);
    expect(rows.filter((r) => r.type === 7).length).toBeGreaterThanOrEqual(6);
    // One biological indicator failed: its loads are recalled and a critical warning was raised.
    expect(rows.filter((r) => r.type === 4 && r.result === 2)).toHaveLength(1);
    expect(await rowCount(recordRecall, first.tenantId)).toBeGreaterThan(0);
    const [indicator] = await scope
      .select(warning, { n: count() })
      .where(eq(warning.warningType, 'indicator'), eq(warning.level, 1));
    expect(Number(indicator?.n)).toBe(1);
    // Both chains of the demo tenant hold, checked by its own administrator.
    const demo = (await t.signIn('admin', first.generatedPassword, first.tenantId)).access_token;
    for (const records of ['verification', 'disinfection']) {
      const verify = await t.as(demo, { method: 'GET', url: `/api/blade-business/${records}/verify` });
      const report = verify.json<{ data: { checked: number; broken: unknown } }>().data;
      expect(report.broken).toBeNull();
      expect(report.checked).toBeGreaterThan(0);
    }
  });

  it('leaves the last day of telemetry and a mix of warnings, most of the older ones handled', async () => {
    const scope = tenantScope(t.ctx.db, first.tenantId);
    const [points] = await scope
      .select(telemetry, { n: count() })
      .where(gte(telemetry.ts, new Date(Date.now() - DAY - 60_000)));
    expect(Number(points?.n)).toBeGreaterThan(1000);
    const rows = await scope
      .select(warning, { level: warning.level, status: warning.status, start: warning.startTime })
      .where();
    expect(new Set(rows.map((r) => r.level)).size).toBeGreaterThanOrEqual(3);
    const handled = rows.filter(
      (r) => r.status === WarningStatus.activeHandled || r.status === WarningStatus.clearedHandled,
    );
    const open = rows.filter(
      (r) => r.status === WarningStatus.activeUnhandled || r.status === WarningStatus.clearedUnhandled,
    );
    expect(handled.length).toBeGreaterThan(0);
    expect(open.length).toBeGreaterThan(0);
    expect(first.made.warningsHandled).toBe(handled.length);
    const [late] = await scope.select(warning, { n: count() }).where(sql`${warning.handleTime} < ${warning.startTime}`);
    expect(Number(late?.n)).toBe(0);
  });

  it('adds nothing when run again', async () => {
    const before = await kinds(first.tenantId);
    const [tenants] = await t.ctx.db.select({ n: count() }).from(tenant);
    const again = await seedDemoTenant(t.app, t.ctx, { now: Date.now() });
    expect(again.tenantId).toBe(first.tenantId);
    expect(again.createdTenant).toBe(false);
    expect(again.generatedPassword).toBeUndefined();
    expect(again.made).toEqual({});
    expect(await kinds(first.tenantId)).toEqual(before);
    const [after] = await t.ctx.db.select({ n: count() }).from(tenant);
    expect(after?.n).toBe(tenants?.n);
  }, 120_000);

  it('lets the demo administrator sign in with the generated password and see only the demo tenant', async () => {
    expect(first.generatedPassword).toMatch(/^\S{16}$/);
    const demo = (await t.signIn('admin', first.generatedPassword, first.tenantId)).access_token;
    const devices = await t.as(demo, { method: 'GET', url: '/api/basic/device/list?size=100' });
    const codes = devices.json<{ data: PageResult<{ deviceCode: string }> }>().data.records.map((d) => d.deviceCode);
    expect(codes).toHaveLength(10);
    expect(codes.every((c) => c.startsWith('DEMO-'))).toBe(true);
    const overview = (await t.as(demo, { method: 'GET', url: '/api/blade-desk/dashboard/overview' })).json<{
      data: WelcomeOverview;
    }>().data;
    expect(overview.devices.total).toBe(10);
    expect(overview.cycles.total).toBe(await rowCount(deviceCycle, first.tenantId));
    // The platform tenant's own devices (the seeded demo devices) are not the demo tenant's.
    const platformDevices = await t.as(platformAdmin, { method: 'GET', url: '/api/basic/device/list?size=100' });
    const platformCodes = platformDevices.json<{ data: PageResult<{ deviceCode: string }> }>().data.records;
    expect(platformCodes.length).toBe(4);
    // Users: the demo administrator and the approver who lets a visitor try a leave (demo-people.ts).
    const users = await t.as(demo, { method: 'GET', url: '/api/blade-user/page?size=100' });
    const accounts = users.json<{ data: PageResult<{ account: string }> }>().data.records.map((u) => u.account);
    expect(accounts.sort()).toEqual(['admin', 'approver']);
    // The approver signs in with the demo administrator's password.
    await t.signIn('approver', first.generatedPassword, first.tenantId);
  });
});

describe('the simulator afterwards', () => {
  it("provisions the demo tenant's nine waterline disinfectors and sterilisers, no new device and no demo clinic", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const api = new ConsoleApi(`http://127.0.0.1:${port}`, first.tenantId);
    await api.signIn('admin', first.generatedPassword as string);
    const devices = await provisionDevices(api, DEMO_SIMULATED_DEVICES, () => undefined);
    expect(devices.map((d) => d.deviceCode).sort()).toEqual(
      DEMO_TENANT_DEVICES.filter((d) => d.productCode !== 'WD-450')
        .map((d) => d.deviceCode)
        .sort(),
    );
    expect(devices.every((d) => d.secret.length > 0)).toBe(true);
    expect(await rowCount(device, first.tenantId)).toBe(10);
    expect(await rowCount(dept, first.tenantId)).toBe(9);
  });
});

describe('the first-start card', () => {
  const state = async (token: string) => t.as(token, { method: 'GET', url: `/api${DEMO_TENANT_STATE_PATH}` });
  const seed = (token: string, payload: Record<string, unknown>) =>
    t.as(token, { method: 'POST', url: `/api${DEMO_TENANT_SEED_PATH}`, payload });

  it('answers only the platform administrator', async () => {
    const tenantAdmin = (await t.signIn('admin', first.generatedPassword, first.tenantId)).access_token;
    // A platform user whose role holds the tenant screen's scopes is still not the administrator.
    const clerk = await signInWithScopes(t, { account: 'clerk', codes: ['tenant:read', 'tenant:write'] });
    for (const token of [tenantAdmin, clerk]) {
      expect((await state(token)).statusCode).toBe(403);
      expect((await seed(token, { confirm: true })).statusCode).toBe(403);
      expect(
        (await t.as(token, { method: 'POST', url: `/api${DEMO_TENANT_DISMISS_PATH}`, payload: {} })).statusCode,
      ).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api${DEMO_TENANT_STATE_PATH}` })).statusCode).toBe(401);
    expect((await state(platformAdmin)).json<{ data: DemoTenantStatus }>().data.state).toBe('offered');
  });

  it('refuses a confirmation without the ticked box (400, nothing started)', async () => {
    const res = await seed(platformAdmin, {});
    expect(res.statusCode).toBe(400);
    expect(res.json<{ msg: string }>().msg).toContain('创建演示租户');
    expect((await readOffer(t.ctx.db)).state).toBe('offered');
  });

  it('runs the seeding as a job once, then never offers it again', async () => {
    const res = await seed(platformAdmin, { confirm: true });
    expect(res.statusCode).toBe(200);
    const reply = res.json<{ data: DemoSeedReply }>().data;
    // The demo tenant exists already (seed:demo above): no new password.
    expect(reply).toMatchObject({ tenantId: first.tenantId, account: 'admin', password: null });
    expect((await seed(platformAdmin, { confirm: true })).statusCode).toBe(400);
    const done = await waitFor(
      async () => (await state(platformAdmin)).json<{ data: DemoTenantStatus }>().data,
      (s) => s.state === 'done' || s.state === 'failed',
    );
    expect(done).toMatchObject({ state: 'done', tenantId: first.tenantId });
    const again = await seed(platformAdmin, { confirm: true });
    expect(again.statusCode).toBe(400);
    await t.as(platformAdmin, { method: 'POST', url: `/api${DEMO_TENANT_DISMISS_PATH}`, payload: {} });
    expect((await readOffer(t.ctx.db)).state).toBe('done');
  }, 120_000);

  it('generates the password of a new demo tenant, shows it once and keeps it owner-readable in DATA_DIR', async () => {
    // A fresh offer, with the demo tenant renamed away so the job makes a new one.
    await t.ctx.db.update(tenant).set({ tenantName: '旧演示租户' }).where(eq(tenant.tenantName, DEMO_TENANT_NAME));
    await writeOffer(t.ctx.db, { state: 'offered' });
    const reply = (await seed(platformAdmin, { confirm: true })).json<{ data: DemoSeedReply }>().data;
    expect(reply.tenantId).toBe('100002');
    expect(reply.password).toMatch(/^\S{16}$/);
    const file = path.join(t.ctx.dataDir, DEMO_PASSWORD_FILE);
    expect(fs.readFileSync(file, 'utf8')).toBe(`tenant 100002, account admin, password ${reply.password}\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // The job payload holds a hash, never the password.
    const jobs = await t.ctx.db.execute(sql`select data::text as data from pgboss.job where name = 'demo.seed'`);
    expect(JSON.stringify(jobs.rows)).not.toContain(reply.password as string);
    const done = await waitFor(
      async () => (await state(platformAdmin)).json<{ data: DemoTenantStatus }>().data,
      (s) => s.state === 'done' || s.state === 'failed',
      180_000,
    );
    expect(done).toMatchObject({ state: 'done', tenantId: '100002' });
    const demo = await t.signIn('admin', reply.password as string, '100002');
    expect(demo.tenant_id).toBe('100002');
  }, 240_000);

  it('is gone for good once dismissed', async () => {
    await writeOffer(t.ctx.db, { state: 'offered' });
    const res = await t.as(platformAdmin, { method: 'POST', url: `/api${DEMO_TENANT_DISMISS_PATH}`, payload: {} });
    expect(res.statusCode).toBe(200);
    expect((await state(platformAdmin)).json<{ data: DemoTenantStatus }>().data.state).toBe('dismissed');
    expect((await seed(platformAdmin, { confirm: true })).statusCode).toBe(400);
    const [row] = await t.ctx.db
      .select({ value: param.paramValue })
      .from(param)
      .where(eq(param.paramKey, DEMO_OFFER_PARAM));
    expect(row?.value).toBe(JSON.stringify({ state: 'dismissed' }));
  });
});

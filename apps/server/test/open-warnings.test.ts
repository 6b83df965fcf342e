import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_OVERVIEW_PATH,
  UNHANDLED_WARNING_LIST_SIZE,
  WARNING_HANDLE_PATH,
  WARNING_UNHANDLED_PATH,
  type UnhandledWarningsReply,
  type WelcomeOverview,
} from '@mes/contracts';
import { nextId } from '../src/platform/db/ids';
import { dataScope, dept, role, roleScope } from '../src/platform/db/schema';
import { ScopeCategory } from '../src/platform/permissions/grants';
import { DEPT_IDS, SEED_MENUS } from '../src/seed/seed-data';
import { signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * One count of open warnings (issue 28, docs/warnings.md): the bell's badge and its 告警 tab
 * (`report/warning/unhandled`) and the welcome page and wall screen (`dashboard/overview`) give
 * the same figure for the same caller, and the bell lists the newest of that same set — for
 * warnings in every state, of another tenant, and of devices outside a department's data scope.
 */
const TENANT = '000000';
const OTHER_TENANT = '300028';
const CLINIC_A = '9281';
const CLINIC_B = '9282';

let t: TestApp;
let admin: string;
let clinicA: string;
let other: string;

const dataOf = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as T;
};
const overview = async (token: string) =>
  dataOf<WelcomeOverview>(await t.as(token, { method: 'GET', url: `/api${DASHBOARD_OVERVIEW_PATH}` }));
const bell = async (token: string) =>
  dataOf<UnhandledWarningsReply>(await t.as(token, { method: 'GET', url: `/api${WARNING_UNHANDLED_PATH}` }));

const rowsOf = async <T>(query: ReturnType<typeof sql>) => (await t.ctx.db.execute(query)).rows as T[];

/** A device of the tenant; `dept` its department now. */
async function insertDevice(tenantId: string, code: string, deptId: string | null): Promise<string> {
  const id = nextId();
  await t.ctx.db.execute(sql`
    insert into mes_device (id, tenant_id, device_code, device_name, dept_id, mqtt_client_id)
    values (${id}, ${tenantId}, ${code}, ${`${code} 名称`}, ${deptId}, ${`${tenantId}-${code}`})`);
  return id;
}

let seq = 0;
/**
 * A warning of a device in `status`, started `minutesAgo`; `deptId` the department it was raised
 * in (a device moved since keeps its old warnings' department).
 */
async function insertWarning(
  tenantId: string,
  deviceCode: string,
  status: number,
  minutesAgo: number,
  deptId: string | null,
): Promise<string> {
  const id = nextId();
  seq += 1;
  await t.ctx.db.execute(sql`
    insert into mes_warning (id, tenant_id, warning_no, device_code, dept_id, warning_type, level, message,
      start_time, status)
    values (${id}, ${tenantId}, ${`W28${String(seq).padStart(6, '0')}`}, ${deviceCode}, ${deptId}, 'threshold',
      ${1 + (seq % 4)}, ${`告警 ${deviceCode} #${seq}`}, now() - ${minutesAgo} * interval '1 minute', ${status})`);
  return id;
}

/** A role whose device data scope is its own department (type 3), with the warnings' read scope. */
async function clinicUser(): Promise<string> {
  const roleId = nextId();
  await t.ctx.db.insert(role).values({ id: roleId, tenantId: TENANT, roleName: 'clinic28', roleAlias: 'r_clinic28' });
  const scopeId = nextId();
  await t.ctx.db.insert(dataScope).values({
    id: scopeId,
    menuId: SEED_MENUS.find((m) => m.code === 'device_info')?.id as string,
    resourceCode: 'device_info',
    scopeName: 'device_info 本部门',
    scopeType: 3,
    scopeValue: '',
  });
  await t.ctx.db.insert(roleScope).values({ id: nextId(), scopeCategory: ScopeCategory.DATA, scopeId, roleId });
  return signInWithScopes(t, {
    account: 'w28clinic',
    roleId,
    deptId: CLINIC_A,
    codes: ['warning:read', 'device_info:read'],
  });
}

/**
 * The open warnings computed here from the raw rows: status 1 or 3, the tenant's, of the devices
 * `devices` (a condition on mes_device d) selects, or of every device, removed ones included,
 * without one; the count and the newest ids.
 */
async function expected(tenantId: string, devices?: ReturnType<typeof sql>) {
  const ofDevices = devices
    ? sql`and w.device_code in (select d.device_code from mes_device d
            where d.tenant_id = ${tenantId} and d.is_deleted = 0 and ${devices})`
    : sql``;
  const open = sql`w.tenant_id = ${tenantId} and w.is_deleted = 0 and w.status in (1, 3) ${ofDevices}`;
  const [counted] = await rowsOf<{ n: string }>(sql`select count(*) n from mes_warning w where ${open}`);
  const newest = await rowsOf<{ id: string }>(sql`
    select id::text id from mes_warning w where ${open} order by start_time desc, id desc limit ${UNHANDLED_WARNING_LIST_SIZE}`);
  return { total: Number(counted?.n ?? 0), newest: newest.map((r) => r.id) };
}

/** Every figure of open warnings the caller's screens show, and the rows the bell and the welcome page list. */
async function figures(token: string) {
  const [o, b] = await Promise.all([overview(token), bell(token)]);
  return {
    welcome: o.work.unhandledWarnings,
    bell: b.total,
    bellRows: b.records.map((r) => r.id),
    welcomeRows: o.work.warnings.map((r) => r.id),
  };
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const clinic = (id: string, deptName: string, sort: number) => ({
    id,
    parentId: DEPT_IDS.east,
    ancestors: `0,${DEPT_IDS.company},${DEPT_IDS.east}`,
    deptName,
    fullName: deptName,
    deptCategory: 5,
    sort,
  });
  await t.ctx.db.insert(dept).values([clinic(CLINIC_A, '二八东一', 1), clinic(CLINIC_B, '二八东二', 2)]);
  await insertDevice(TENANT, 'W28-A1', CLINIC_A);
  await insertDevice(TENANT, 'W28-B1', CLINIC_B);
  // Moved from clinic B to clinic A: its warnings were raised in B, the device is A's now.
  await insertDevice(TENANT, 'W28-M1', CLINIC_A);
  // New (status 1) warnings: more than a list holds, so the count cannot be the list's length.
  for (let i = 0; i < UNHANDLED_WARNING_LIST_SIZE + 2; i += 1)
    ids[`new${i}`] = await insertWarning(TENANT, 'W28-A1', 1, 10 + i * 5, CLINIC_A);
  ids.acknowledged = await insertWarning(TENANT, 'W28-A1', 2, 1, CLINIC_A);
  ids.clearedOpen = await insertWarning(TENANT, 'W28-A1', 3, 3, CLINIC_A);
  ids.closed = await insertWarning(TENANT, 'W28-A1', 4, 2, CLINIC_A);
  ids.otherClinic = await insertWarning(TENANT, 'W28-B1', 1, 4, CLINIC_B);
  ids.movedDevice = await insertWarning(TENANT, 'W28-M1', 1, 7, CLINIC_B);
  // A warning whose device was removed (no row): the tenant's, outside every department.
  ids.noDevice = await insertWarning(TENANT, 'W28-GONE', 3, 5, CLINIC_A);
  const removed = await insertWarning(TENANT, 'W28-A1', 1, 0, CLINIC_A);
  await t.ctx.db.execute(sql`update mes_warning set is_deleted = 1 where id = ${removed}`);

  other = await signInToNewTenant(t, OTHER_TENANT, ['warning:read']);
  await insertDevice(OTHER_TENANT, 'W28-A1', null);
  ids.otherTenant = await insertWarning(OTHER_TENANT, 'W28-A1', 1, 0, null);
  ids.otherTenantCleared = await insertWarning(OTHER_TENANT, 'W28-A1', 3, 6, null);
  clinicA = await clinicUser();
});
afterAll(() => t?.close());

describe('one count of open warnings', () => {
  it('gives the administrator one figure everywhere: new and cleared-unhandled, not acknowledged or closed', async () => {
    const want = await expected(TENANT);
    const got = await figures(admin);
    expect(got.bell).toBe(want.total);
    expect(got.welcome).toBe(want.total);
    expect(got.bellRows).toEqual(want.newest);
    expect(got.welcomeRows).toEqual(got.bellRows);
    expect(got.bellRows).toContain(ids.clearedOpen);
    for (const shut of [ids.acknowledged, ids.closed]) expect(got.bellRows).not.toContain(shut);
    expect(got.bellRows).not.toContain(ids.otherTenant);
    // Without a device data scope, a removed device's warnings still count.
    expect(want.total).toBe(UNHANDLED_WARNING_LIST_SIZE + 6);
  });

  it('counts for a department the warnings of its devices, a moved device’s included, and lists the newest of them', async () => {
    const want = await expected(TENANT, sql`d.dept_id = ${CLINIC_A}`);
    const got = await figures(clinicA);
    expect(got.bell).toBe(want.total);
    expect(got.welcome).toBe(want.total);
    // 12 new + 1 cleared on A1, 1 new on the moved device; not clinic B's, nor the removed device's.
    expect(want.total).toBe(UNHANDLED_WARNING_LIST_SIZE + 4);
    expect(got.bellRows).toEqual(want.newest);
    expect(got.welcomeRows).toEqual(got.bellRows);
    expect(got.bellRows).toContain(ids.movedDevice);
    expect(got.bellRows).not.toContain(ids.otherClinic);
  });

  it('keeps another tenant to its own warnings', async () => {
    const got = await figures(other);
    expect(got).toMatchObject({ bell: 2, welcome: 2 });
    expect(got.bellRows).toEqual([ids.otherTenant, ids.otherTenantCleared]);
  });

  it('drops a handled warning from every figure at once', async () => {
    const before = await figures(admin);
    const handled = await t.as(admin, {
      method: 'POST',
      url: `/api${WARNING_HANDLE_PATH}`,
      payload: { ids: before.bellRows[0], result: '已复位' },
    });
    expect(handled.statusCode, handled.body).toBe(200);
    const after = await figures(admin);
    expect(after.bell).toBe(before.bell - 1);
    expect(after.welcome).toBe(after.bell);
    expect(after.bellRows).not.toContain(before.bellRows[0]);
    expect(after.bellRows).toEqual((await expected(TENANT)).newest);
  });

  it('answers the bell only to callers who may read warnings', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: `/api${WARNING_UNHANDLED_PATH}` });
    expect(anonymous.statusCode).toBe(401);
    const noWarnings = await signInWithScopes(t, { account: 'w28nowarn', codes: ['device_info:read'] });
    const refused = await t.as(noWarnings, { method: 'GET', url: `/api${WARNING_UNHANDLED_PATH}` });
    expect(refused.statusCode).toBe(403);
  });
});

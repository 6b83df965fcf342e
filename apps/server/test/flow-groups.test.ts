import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowPaths, MenuCategory, NOTICE_INBOX_PATH, type MenuNode, type NoticeInboxReply } from '@mes/contracts';
import { dept, menu, param, role, user } from '../src/platform/db/schema';
import { tenantScope } from '../src/platform/tenancy/tenant-scope';
import { DEMO_APPROVER, peopleStep } from '../src/modules/demo/demo-people';
import { DemoApi } from '../src/modules/demo/demo-session';
import type { DemoSession } from '../src/modules/demo/demo-steps';
import { candidateGroupsOf, SHIPPED_PROCESS_GROUPS, SHIPPED_PROCESSES_XML } from '../src/modules/flow/process-groups';
import { signInAsProvisionedTenant, signInWithScopes } from './support/scoped-user';
import { apiCalls, createTestApp, type TestApp } from './support/test-app';

/**
 * Issue 30 point 2: a new tenant's workflow finishes. Its roles hold every group the shipped
 * processes hand tasks to, a task no user can claim tells the administrators at once, and the
 * shipped leave process is a model on 模型管理 that can be redeployed. Point 7: a menu group the
 * caller can open nothing in is not in their menu.
 */
let t: TestApp;
let platform: string;
let admin: string;
let adminId: string;
const TENANT = '300301';
const { call, data } = apiCalls(() => t);

type Json = Record<string, unknown>;

const day = (d: number) => `2026-12-${String(d).padStart(2, '0')} 09:00:00`;

async function startLeave(token: string, days: number, taskUser: string) {
  return data<{ processInstanceId: string }>(token, 'POST', FlowPaths.leaveStart, {
    startTime: day(1),
    endTime: day(1 + days),
    leaveType: 1,
    reason: '探亲',
    taskUser,
  });
}

async function passManagerStep(token: string, instanceId: string) {
  const todo = await data<{ records: Json[] }>(token, 'GET', `${FlowPaths.workTodoList}?size=100`);
  const task = todo.records.find((r) => r.processInstanceId === instanceId);
  expect(task, 'the approver has the task').toBeDefined();
  const done = await call(token, 'POST', FlowPaths.workComplete, { taskId: task?.taskId, pass: true });
  expect(done.status, done.body.msg).toBe(200);
}

const inbox = (token: string) => data<NoticeInboxReply>(token, 'GET', `${NOTICE_INBOX_PATH}?size=50`);

beforeAll(async () => {
  t = await createTestApp();
  platform = (await t.signIn()).access_token;
  admin = await signInAsProvisionedTenant(t, platform, TENANT, '组测试租户');
  const [row] = await tenantScope(t.ctx.db, TENANT).select(user, { id: user.id }).where(eq(user.account, 'admin'));
  adminId = String(row?.id);
}, 120_000);
afterAll(() => t.close());

describe('the groups of the shipped processes', () => {
  it('names every candidate group the shipped XML uses', () => {
    const named = SHIPPED_PROCESS_GROUPS.map((g) => g.alias as string);
    const used = SHIPPED_PROCESSES_XML.flatMap(candidateGroupsOf);
    expect(used).toContain('hr');
    for (const group of used) expect(named).toContain(group);
  });

  it('are roles of a new tenant', async () => {
    const roles = await tenantScope(t.ctx.db, TENANT)
      .select(role, { alias: role.roleAlias, name: role.roleName })
      .where();
    expect(roles).toContainEqual({ alias: 'hr', name: '人事' });
  });
});

describe('a task no user can claim', () => {
  it('is announced to the administrators; once someone holds the group, it is not', async () => {
    const before = await inbox(admin);
    const leave = await startLeave(admin, 5, adminId);
    await passManagerStep(admin, leave.processInstanceId);
    const after = await inbox(admin);
    expect(after.total).toBe(before.total + 1);
    expect(after.records[0]).toMatchObject({ read: false });
    expect(after.records[0]?.title).toContain('人事审批');
    expect(after.records[0]?.title).toContain('无人可签收');

    // A user of the tenant takes the 人事 role: the next long leave reaches them, no notice.
    const [hr] = await tenantScope(t.ctx.db, TENANT).select(role, { id: role.id }).where(eq(role.roleAlias, 'hr'));
    const hrUser = await signInWithScopes(t, { tenantId: TENANT, account: 'hr_a', codes: [], roleId: String(hr?.id) });
    const second = await startLeave(admin, 6, adminId);
    await passManagerStep(admin, second.processInstanceId);
    expect((await inbox(admin)).total).toBe(after.total);
    const claimable = await data<{ records: Json[] }>(hrUser, 'GET', `${FlowPaths.workClaimList}?size=100`);
    expect(claimable.records.map((r) => r.processInstanceId)).toContain(second.processInstanceId);
  });
});

describe('the shipped leave process under 模型管理', () => {
  it('is listed, and redeploying it makes a new version of the leave definition', async () => {
    const models = await data<{ records: Json[] }>(admin, 'GET', '/blade-flow/model/list?size=50');
    const leave = models.records.find((m) => m.modelKey === 'leave');
    expect(leave).toMatchObject({ name: '请假流程', version: 1 });
    const deployed = await data<Json[]>(admin, 'POST', `/blade-flow/model/deploy?modelId=${String(leave?.id)}`);
    expect(deployed[0]).toMatchObject({ key: 'leave', version: 2, tenantId: TENANT });
  });
});

describe('the menu', () => {
  it('leaves out a group the caller can open nothing in (研发工具 for a tenant administrator)', async () => {
    const forest = await data<MenuNode[]>(admin, 'GET', '/blade-system/menu/routes');
    const groups = new Set(
      (
        await t.ctx.db
          .selectDistinct({ parentId: menu.parentId })
          .from(menu)
          .where(and(eq(menu.isDeleted, 0), eq(menu.category, MenuCategory.MENU)))
      ).map((r) => r.parentId),
    );
    const walk = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...walk(n.children ?? [])]);
    const shown = walk(forest);
    expect(shown.length).toBeGreaterThan(0);
    // 研发工具 holds only platform screens (data sources, code generator).
    expect(forest.map((n) => n.code)).not.toContain('tool');
    for (const node of shown) if (groups.has(node.id)) expect(node.children?.length ?? 0, node.name).toBeGreaterThan(0);
    // The platform administrator holds its screens: there it stays.
    const platformForest = await data<MenuNode[]>(platform, 'GET', '/blade-system/menu/routes');
    expect(platformForest.map((n) => n.code)).toContain('tool');
  });
});

describe("the demo's people step", () => {
  it('adds an approver who signs in with the administrator password and approves, notices and desk services, once', async () => {
    const [root] = await tenantScope(t.ctx.db, TENANT).select(dept, { id: dept.id }).where(eq(dept.parentId, '0'));
    const session = {
      app: t.app,
      ctx: t.ctx,
      options: { now: Date.now() },
      tenantId: TENANT,
      admin: await DemoApi.as(t.app, t.ctx, TENANT, adminId),
      adminUserId: adminId,
      rootDeptId: String(root?.id),
      made: {},
    } as unknown as DemoSession;
    await peopleStep(session);
    expect(session.made).toEqual({ users: 1, notices: 3, services: 4 });
    session.made = {};
    await peopleStep(session);
    expect(session.made).toEqual({});

    // The approver's password is the administrator's (here the tenant default), never one in the code.
    const [defaultPassword] = await t.ctx.db
      .select({ value: param.paramValue })
      .from(param)
      .where(eq(param.paramKey, 'tenant.default.password'));
    const approver = (await t.signIn(DEMO_APPROVER.account, defaultPassword?.value ?? '', TENANT)).access_token;
    const [row] = await tenantScope(t.ctx.db, TENANT)
      .select(user, { id: user.id })
      .where(eq(user.account, DEMO_APPROVER.account));
    const leave = await startLeave(admin, 2, String(row?.id));
    await passManagerStep(approver, leave.processInstanceId);

    const titles = (await inbox(approver)).records.map((r) => r.title);
    expect(titles).toContain('欢迎使用演示租户:请假流程可以这样试');
    const services = await data<{ records: Json[] }>(admin, 'GET', '/blade-desk/service/list?size=50');
    expect(services.records.map((r) => r.serviceCode)).toEqual(
      expect.arrayContaining(['REPAIR', 'PM', 'VALIDATE', 'TRAIN']),
    );
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowPaths, SmsCategory } from '@mes/contracts';
import { car, role, user } from '../src/platform/db/schema';
import { DEPT_IDS } from '../src/seed/seed-data';
import { cycleModel } from './support/flow-models';
import { waitFor } from './support/mqtt-kit';
import { startSecondProcess } from './support/second-process';
import { signInWithScopes } from './support/scoped-user';
import { apiCalls, createTestApp, type TestApp } from './support/test-app';

/**
 * The workflow's service tasks against the real database (docs/workflow.md, "Service tasks"):
 * notices to one user, SMS through the tenant's provider (the development one), a business
 * record's field through the resource's own submit, failures recorded on the step while the
 * instance goes on, and repeating timer cycles fired through the durable queue by two processes.
 */
let t: TestApp;
let admin: string;
let employee: string;
let other: string;
const ids: Record<string, string> = {};

type Json = Record<string, unknown> & { records?: Json[] };

const { call, data } = apiCalls(() => t);
const history = async (instanceId: string) =>
  (await data(admin, 'GET', `${FlowPaths.historyFlowList}?processInstanceId=${instanceId}`)) as unknown as Json[];
const step = async (instanceId: string, activityId: string) =>
  (await history(instanceId)).find((s) => s.historyActivityId === activityId);

const model = (key: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:mes="http://mes.example/bpmn" id="d_${key}" targetNamespace="mes">
  <process id="${key}" name="${key}" isExecutable="true">${body}</process>
</definitions>`;

/** start → the tasks given, in a row → a user task of the starter → end. */
function chain(key: string, tasks: string[]): string {
  const ids = tasks.map((_, i) => `s${i}`);
  const flows = ['start', ...ids, 'wait', 'end'];
  // The linter reads a node's connections from its incoming / outgoing elements.
  const links = (i: number) =>
    `${i > 0 ? `<incoming>f${i - 1}</incoming>` : ''}${i < flows.length - 1 ? `<outgoing>f${i}</outgoing>` : ''}`;
  const body = [
    `<startEvent id="start">${links(0)}</startEvent>`,
    ...tasks.map((attrs, i) => `<serviceTask id="s${i}" name="s${i}" ${attrs}>${links(i + 1)}</serviceTask>`),
    `<userTask id="wait" name="wait" flowable:assignee="\${initiator}">${links(flows.length - 2)}</userTask>`,
    `<endEvent id="end">${links(flows.length - 1)}</endEvent>`,
    ...flows.slice(1).map((to, i) => `<sequenceFlow id="f${i}" sourceRef="${flows[i]}" targetRef="${to}" />`),
  ];
  return model(key, body.join('\n'));
}

async function deploy(xml: string) {
  const id = await data(admin, 'POST', '/blade-flow/model/submit', { xml });
  await data(admin, 'POST', `${FlowPaths.modelDeploy}?modelId=${String(id)}`);
}
async function start(token: string, key: string, variables: Record<string, unknown> = {}) {
  const started = await data(token, 'POST', FlowPaths.workStart, { processDefinitionKey: key, variables });
  return String(started.processInstanceId);
}

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  admin = (await t.signIn()).access_token;
  const [userRole] = await t.ctx.db.select({ id: role.id }).from(role).where(eq(role.roleAlias, 'user'));
  employee = await signInWithScopes(t, { account: 'svc_emp', codes: [], roleId: String(userRole?.id) });
  other = await signInWithScopes(t, { account: 'svc_other', codes: [], roleId: String(userRole?.id) });
  const users = await t.ctx.database.pool.query<{ id: string; account: string }>(
    `select id::text, account from blade_user where tenant_id = '000000' and account in ('svc_emp', 'svc_other')`,
  );
  for (const u of users.rows) ids[u.account] = u.id;
  await t.ctx.db
    .update(user)
    .set({ phone: '13800138001' })
    .where(eq(user.id, ids.svc_other as string));
}, 120_000);
afterAll(() => t.close());

describe('model checks of service tasks', () => {
  it('refuses, naming the task, an unknown kind, resource or field and a regulated record, in both languages', async () => {
    const refusal = async (attrs: string, lang = 'zh-CN') =>
      (await call(admin, 'POST', '/blade-flow/model/submit', { xml: chain('bad_svc', [attrs]) }, lang)).body.msg;
    expect(await refusal('mes:service="script"')).toContain('服务任务 s0 应声明 mes:service="notice|set|sms|setField"');
    expect(await refusal('mes:service="script"', 'en')).toContain(
      'The service task s0 must declare mes:service="notice|set|sms|setField"',
    );
    expect(
      await refusal('mes:service="setField" mes:resource="blade_user" mes:recordId="${id}" mes:field="phone"'),
    ).toContain('服务任务 s0: 不能修改资源 blade_user');
    expect(
      await refusal('mes:service="setField" mes:resource="car" mes:recordId="${id}" mes:field="colour"', 'en'),
    ).toContain('The service task s0: the resource car has no editable field colour');
    expect(
      await refusal('mes:service="setField" mes:resource="disinfection" mes:recordId="${id}" mes:field="remark"'),
    ).toContain('s0: disinfection 是受监管的记录');
    expect(await refusal('mes:service="sms" mes:params="code"', 'en')).toContain(
      'The service task s0 must name its recipient in mes:phone or mes:users',
    );
    expect(await refusal('mes:service="notice"')).toContain('服务任务 s0 应以 mes:title 指定通知标题');
  });
});

describe('notice, SMS and setField tasks', () => {
  let carId: string;

  beforeAll(async () => {
    const base = await data(admin, 'POST', '/blade-system/dept/submit', {
      deptName: '流程基地',
      fullName: '流程基地',
      parentId: DEPT_IDS.company,
      deptCategory: 4,
    });
    carId = String(
      await data(admin, 'POST', '/blade-business/car/submit', {
        name: '流程车',
        plate: '苏E54321',
        barCode: 'FLOW-CAR',
        base,
        capacity: 10,
      }),
    );
    await deploy(
      chain('svc', [
        'mes:service="notice" mes:users="starter" mes:title="请处理 ${code}" mes:content="${code} 待处理"',
        'mes:service="sms" mes:users="starter" mes:params="code"',
        'mes:service="sms" mes:phone="${phone}" mes:params="number=code"',
        'mes:service="setField" mes:resource="car" mes:recordId="${carId}" mes:field="capacity" mes:value="${capacity}"',
      ]),
    );
  });

  it('without an SMS provider: the notice reaches the starter alone, the SMS steps fail with the reason, the instance goes on', async () => {
    const instanceId = await start(employee, 'svc', { code: 'N-1', phone: '13800138000', carId, capacity: 12 });
    const inbox = (await data(employee, 'GET', '/blade-desk/notice/inbox?size=50')).records as Json[];
    expect(inbox.map((n) => n.title)).toContain('请处理 N-1');
    const others = (await data(other, 'GET', '/blade-desk/notice/inbox?size=50')).records as Json[];
    expect(others.map((n) => n.title)).not.toContain('请处理 N-1');
    expect(await step(instanceId, 's0')).toMatchObject({ comment: '通知已发送', isPass: true });
    // The starter has no phone: refused at once. The number is sent after the move, by a job.
    expect(await step(instanceId, 's1')).toMatchObject({ comment: '失败: 用户 svc_emp 没有手机号', isPass: false });
    await waitFor(async () => (await step(instanceId, 's2'))?.comment !== '短信发送中', 30_000);
    expect(await step(instanceId, 's2')).toMatchObject({ comment: '失败: 租户没有启用的短信配置', isPass: false });
    // The field was set through the car's own submit (and logged), and the starter's task waits.
    expect(await step(instanceId, 's3')).toMatchObject({ isPass: true });
    const [row] = await t.ctx.db.select({ capacity: car.capacity }).from(car).where(eq(car.id, carId));
    expect(row?.capacity).toBe(12);
    // Logged as the starter's update of the car (whose move ran the task).
    const logs = await t.ctx.database.pool.query<{ operation: string; create_user: string }>(
      `select operation, create_user::text from blade_log_operation where resource_code = 'car' and ids like $1`,
      [`%${carId}%`],
    );
    expect(logs.rows).toContainEqual({ operation: 'update', create_user: ids.svc_emp });
    const todo = (await data(employee, 'GET', `${FlowPaths.workTodoList}?size=50`)).records as Json[];
    expect(todo.filter((r) => r.processInstanceId === instanceId).map((r) => r.taskName)).toEqual(['wait']);
  });

  it('with the development provider: the SMS is sent to the user’s phone; an invalid value is a failed step, not an error', async () => {
    const config = await data(admin, 'POST', '/blade-resource/sms/submit', {
      category: SmsCategory.development,
      smsCode: 'flow-dev',
      templateId: 'FLOW_1',
    });
    await data(admin, 'POST', `/blade-resource/sms/enable?id=${String(config)}`);
    await deploy(
      chain('svc_user', [
        'mes:service="sms" mes:users="${who}" mes:params="code"',
        'mes:service="setField" mes:resource="car" mes:recordId="${carId}" mes:field="capacity" mes:value="${capacity}"',
      ]),
    );
    const res = await call(employee, 'POST', FlowPaths.workStart, {
      processDefinitionKey: 'svc_user',
      variables: { code: 'N-2', who: ids.svc_other, carId, capacity: 100000 },
    });
    expect(res.status).toBe(200);
    const instanceId = String(res.body.data.processInstanceId);
    await waitFor(async () => (await step(instanceId, 's0'))?.comment !== '短信发送中', 30_000);
    expect(await step(instanceId, 's0')).toMatchObject({ comment: '短信已发送至 13800138001', isPass: true });
    const failed = await step(instanceId, 's1');
    expect(failed).toMatchObject({ isPass: false });
    expect(String(failed?.comment)).toMatch(/^失败: .*装载量/);
    const [row] = await t.ctx.db.select({ capacity: car.capacity }).from(car).where(eq(car.id, carId));
    expect(row?.capacity).toBe(12);
    const todo = (await data(employee, 'GET', `${FlowPaths.workTodoList}?size=50`)).records as Json[];
    expect(todo.some((r) => r.processInstanceId === instanceId)).toBe(true);
  });
});

async function timerJobs(instanceId: string) {
  const jobs = await t.ctx.database.pool.query<{ state: string; output: unknown }>(
    `select state, output from pgboss.job where name = 'flow.timer' and data->>'instanceId' = $1`,
    [instanceId],
  );
  return jobs.rows;
}
const reminders = async (instanceId: string) =>
  (await history(instanceId)).filter((s) => s.historyActivityId === 'remind').length;

describe('repeating timer cycles', () => {
  it('R3 fires three times, once each, with two server processes', async () => {
    await deploy(cycleModel('cycle3', 'R3/PT1S'));
    const second = await startSecondProcess(t);
    try {
      const instanceId = await start(employee, 'cycle3', { n: 0 });
      await waitFor(async () => {
        const jobs = await timerJobs(instanceId);
        return jobs.length === 3 && jobs.every((j) => j.state === 'completed');
      }, 45_000);
      expect((await timerJobs(instanceId)).map((j) => j.output)).toEqual([
        { fired: true },
        { fired: true },
        { fired: true },
      ]);
      expect(await reminders(instanceId)).toBe(3);
      // The task still waits, and no fourth firing is scheduled.
      const todo = (await data(employee, 'GET', `${FlowPaths.workTodoList}?size=50`)).records as Json[];
      expect(todo.filter((r) => r.processInstanceId === instanceId).map((r) => r.taskName)).toEqual(['等待']);
      expect(await timerJobs(instanceId)).toHaveLength(3);
    } finally {
      await second.close();
    }
  }, 90_000);

  it('an unbounded cycle fires until its task is completed, then stops', async () => {
    await deploy(cycleModel('cycle_open', 'R/PT1S'));
    const instanceId = await start(employee, 'cycle_open', { n: 0 });
    await waitFor(async () => (await reminders(instanceId)) >= 2, 45_000);
    const todo = (await data(employee, 'GET', `${FlowPaths.workTodoList}?size=50`)).records as Json[];
    const task = todo.find((r) => r.processInstanceId === instanceId);
    expect((await call(employee, 'POST', FlowPaths.workComplete, { taskId: task?.taskId, pass: true })).status).toBe(
      200,
    );
    // The one firing scheduled when the task ended finds nothing to fire; nothing is scheduled after it.
    await waitFor(async () => (await timerJobs(instanceId)).every((j) => j.state === 'completed'), 30_000);
    const jobs = await timerJobs(instanceId);
    expect(jobs.filter((j) => (j.output as { fired?: boolean } | null)?.fired === false)).toHaveLength(1);
    expect(jobs.filter((j) => (j.output as { fired?: boolean } | null)?.fired === true)).toHaveLength(
      await reminders(instanceId),
    );
  }, 90_000);
});

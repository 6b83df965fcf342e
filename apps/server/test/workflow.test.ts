import { spawn } from 'node:child_process';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowPaths } from '@mes/contracts';
import { flowInstance, flowTask, role } from '../src/platform/db/schema';
import { DEPT_IDS } from '../src/seed/seed-data';
import { waitFor } from './support/mqtt-kit';
import { startSecondProcess } from './support/second-process';
import { signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Workflow on bpmn-engine (docs/workflow.md): the seeded leave process end to end through the
 * API, who may claim and complete, suspension, continuity across processes, a timer fired by
 * the durable queue with two processes, tenant isolation, model checks and the upload.
 */
let t: TestApp;
let admin: string;
let employee: string;
let manager: string;
let hr1: string;
let hr2: string;
let outsider: string;
const ids: Record<string, string> = {};

type Json = Record<string, unknown> & { records?: Json[] };

async function call(token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await t.as(token, { method, url: `/api${url}`, payload: payload as Record<string, unknown> });
  return { status: res.statusCode, body: res.json<{ success: boolean; msg: string; data: Json }>() };
}
async function data(token: string, method: 'GET' | 'POST', url: string, payload?: unknown): Promise<Json> {
  const res = await call(token, method, url, payload);
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
const records = async (token: string, path: string, query = '') =>
  ((await data(token, 'GET', `${path}?size=100${query}`)).records ?? []) as Json[];

async function startLeave(token: string, days: number, reason = '事假') {
  const start = new Date(2026, 11, 1, 9, 0, 0);
  const end = new Date(start.getTime() + days * 86_400_000);
  const fmt = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ` +
    `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:00`;
  return (await data(token, 'POST', FlowPaths.leaveStart, {
    startTime: fmt(start),
    endTime: fmt(end),
    leaveType: 1,
    reason,
    taskUser: ids.manager,
  })) as { businessId: string; processInstanceId: string };
}

async function todoOf(token: string, instanceId: string) {
  return (await records(token, FlowPaths.workTodoList)).filter((r) => r.processInstanceId === instanceId);
}
async function complete(token: string, taskId: unknown, pass: boolean, comment = '') {
  return call(token, 'POST', FlowPaths.workComplete, { taskId, pass, comment });
}
async function instanceStatus(instanceId: string) {
  const [row] = await t.ctx.db
    .select({ s: flowInstance.flowStatus })
    .from(flowInstance)
    .where(eq(flowInstance.id, instanceId));
  return row?.s;
}

beforeAll(async () => {
  t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
  admin = (await t.signIn()).access_token;
  const roles = await t.ctx.db
    .select({ id: role.id, alias: role.roleAlias })
    .from(role)
    .where(eq(role.tenantId, '000000'));
  const roleId = (alias: string) => String(roles.find((r) => r.alias === alias)?.id);
  employee = await signInWithScopes(t, { account: 'emp', codes: [], roleId: roleId('user') });
  manager = await signInWithScopes(t, { account: 'mgr', codes: [], roleId: roleId('manager') });
  hr1 = await signInWithScopes(t, { account: 'hr1', codes: [], roleId: roleId('hr') });
  hr2 = await signInWithScopes(t, { account: 'hr2', codes: [], roleId: roleId('hr') });
  outsider = await signInWithScopes(t, { account: 'outsider', codes: [], roleId: roleId('user') });
  const users = await t.ctx.database.pool.query<{ id: string; account: string }>(
    `select id::text, account from blade_user where tenant_id = '000000'`,
  );
  for (const u of users.rows) ids[u.account === 'mgr' ? 'manager' : u.account] = u.id;
}, 120_000);
afterAll(() => t.close());

describe('the seeded leave process', () => {
  it('is offered to every user to start', async () => {
    const list = await records(employee, FlowPaths.workStartList);
    expect(list.map((d) => d.key)).toContain('leave');
    expect(list.find((d) => d.key === 'leave')).toMatchObject({
      name: '请假流程',
      version: 1,
      category: 1,
      categoryName: '请假流程',
    });
  });

  it('short leave: the approver passes it and the process ends', async () => {
    const leave = await startLeave(employee, 2);
    expect(await todoOf(employee, leave.processInstanceId)).toEqual([]);
    const [task] = await todoOf(manager, leave.processInstanceId);
    expect(task).toMatchObject({
      taskName: '审批人审批',
      assignee: ids.manager,
      businessId: leave.businessId,
      status: 1,
    });
    expect((await complete(manager, task?.taskId, true, '同意')).status).toBe(200);
    expect(await instanceStatus(leave.processInstanceId)).toBe(2);
    const sent = await records(employee, FlowPaths.workSendList);
    expect(sent.find((r) => r.processInstanceId === leave.processInstanceId)).toMatchObject({
      flowStatus: 2,
      processIsFinished: true,
    });
    const done = await records(manager, FlowPaths.workDoneList);
    expect(done.find((r) => r.taskId === task?.taskId)).toMatchObject({ isPass: true, comment: '同意', status: 2 });
    const detail = await data(employee, 'GET', `${FlowPaths.leaveDetail}?businessId=${leave.businessId}`);
    expect(detail).toMatchObject({ reason: '事假', days: '2.00', taskUserName: 'mgr', processIsFinished: true });
    const steps = (detail.flow as Json[]).map((s) => [s.historyActivityId, s.assigneeName, s.comment]);
    expect(steps).toEqual([
      ['start', 'emp', ''],
      ['gwJoin', '', ''],
      ['managerAudit', 'mgr', '同意'],
      ['gwManager', '', ''],
      ['endApproved', '', ''],
    ]);
  });

  it('long leave goes to HR; a rejection returns it to the employee, who resubmits', async () => {
    const leave = await startLeave(employee, 5);
    const [audit] = await todoOf(manager, leave.processInstanceId);
    expect((await complete(manager, audit?.taskId, true)).status).toBe(200);

    // HR: a task for the group, claimed by one of its members.
    const claimable = (await records(hr1, FlowPaths.workClaimList)).filter(
      (r) => r.processInstanceId === leave.processInstanceId,
    );
    expect(claimable).toHaveLength(1);
    expect(claimable[0]).toMatchObject({ taskName: '人事审批', candidateGroups: 'hr', assignee: null });
    const hrTask = claimable[0]?.taskId;
    expect((await records(hr2, FlowPaths.workClaimList)).map((r) => r.taskId)).toContain(hrTask);
    expect((await records(manager, FlowPaths.workClaimList)).map((r) => r.taskId)).not.toContain(hrTask);

    const notCandidate = await call(manager, 'POST', FlowPaths.workClaim, { taskId: hrTask });
    expect(notCandidate.status).toBe(403);
    expect(notCandidate.body.msg).toBe('您不是该任务的候选人,不能签收');
    const unclaimed = await complete(hr1, hrTask, true);
    expect(unclaimed.status).toBe(400);
    expect(unclaimed.body.msg).toBe('请先签收该任务');
    expect((await complete(outsider, hrTask, true)).status).toBe(403);

    // Two members claim at once: one wins, the other is told who has it.
    const race = await Promise.all([
      call(hr1, 'POST', FlowPaths.workClaim, { taskId: hrTask }),
      call(hr2, 'POST', FlowPaths.workClaim, { taskId: hrTask }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 400]);
    const loser = race.find((r) => r.status === 400);
    expect(loser?.body.msg).toMatch(/^任务已被 hr[12] 签收$/);
    const winner = race[0]?.status === 200 ? hr1 : hr2;
    const other = winner === hr1 ? hr2 : hr1;
    const notMine = await complete(other, hrTask, true);
    expect(notMine.status).toBe(403);
    expect(notMine.body.msg).toBe('只有任务的办理人可以办理该任务');
    const en = await t.as(other, {
      method: 'POST',
      url: `/api${FlowPaths.workComplete}`,
      headers: { 'accept-language': 'en-US' },
      payload: { taskId: hrTask },
    });
    expect(en.json().msg).toBe('Only the assignee may complete the task');

    // HR rejects: back to the applicant.
    expect((await complete(winner, hrTask, false, '材料不全')).status).toBe(200);
    const [adjust] = await todoOf(employee, leave.processInstanceId);
    expect(adjust).toMatchObject({ taskName: '调整申请', assignee: ids.emp });
    // The applicant cannot choose another approver or shorten the leave by a variable.
    const sneaky = await call(employee, 'POST', FlowPaths.workComplete, {
      taskId: adjust?.taskId,
      pass: true,
      variables: { days: 1 },
    });
    expect(sneaky.status).toBe(400);
    expect(sneaky.body.msg).toBe('流程变量 days 由系统设置,不能修改');
    expect((await complete(employee, adjust?.taskId, true, '已补充')).status).toBe(200);

    // Resubmitted: approver, then HR again, and done.
    const [again] = await todoOf(manager, leave.processInstanceId);
    expect((await complete(manager, again?.taskId, true)).status).toBe(200);
    const [hrAgain] = (await records(hr2, FlowPaths.workClaimList)).filter(
      (r) => r.processInstanceId === leave.processInstanceId,
    );
    expect((await call(hr2, 'POST', FlowPaths.workClaim, { taskId: hrAgain?.taskId })).status).toBe(200);
    expect((await complete(hr2, hrAgain?.taskId, true, '准假')).status).toBe(200);
    expect(await instanceStatus(leave.processInstanceId)).toBe(2);

    const history = (await data(
      employee,
      'GET',
      `${FlowPaths.historyFlowList}?processInstanceId=${leave.processInstanceId}`,
    )) as unknown as Json[];
    const userSteps = history.filter((s) => s.historyActivityType === 'bpmn:UserTask');
    expect(userSteps.map((s) => [s.historyActivityId, s.isPass, s.comment])).toEqual([
      ['managerAudit', true, ''],
      ['hrAudit', false, '材料不全'],
      ['adjust', true, '已补充'],
      ['managerAudit', true, ''],
      ['hrAudit', true, '准假'],
    ]);
    expect(history.at(-1)).toMatchObject({ historyActivityId: 'endHrApproved', current: false });
    for (const s of userSteps) expect(s.historyActivityDurationTime).toMatch(/秒|分钟|小时|天/);
    // Someone with no part in it sees nothing.
    expect(
      (await call(outsider, 'GET', `${FlowPaths.historyFlowList}?processInstanceId=${leave.processInstanceId}`)).status,
    ).toBe(404);
    expect((await call(outsider, 'GET', `${FlowPaths.leaveDetail}?businessId=${leave.businessId}`)).status).toBe(404);
  });

  it('refuses a leave that ends before it starts, or an approver of no user, with nothing stored', async () => {
    const bad = await call(employee, 'POST', FlowPaths.leaveStart, {
      startTime: '2026-12-05 09:00:00',
      endTime: '2026-12-01 09:00:00',
      reason: 'x',
      taskUser: ids.manager,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('结束时间必须晚于开始时间');
    const noUser = await call(employee, 'POST', FlowPaths.leaveStart, {
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-02 09:00:00',
      reason: 'x',
      taskUser: '123',
    });
    expect(noUser.status).toBe(400);
  });
});

describe('deployments', () => {
  it('a suspended definition starts nothing and its tasks cannot be completed', async () => {
    const leave = await startLeave(employee, 1);
    const [task] = await todoOf(manager, leave.processInstanceId);
    const def = (await records(admin, '/blade-flow/manager/list', '&key=leave'))[0];
    const state = (s: string) => data(admin, 'POST', FlowPaths.managerChangeState, { processId: def?.id, state: s });
    await state('suspend');
    expect((await records(admin, '/blade-flow/manager/list', '&key=leave'))[0]).toMatchObject({ suspensionState: 2 });
    expect((await records(employee, FlowPaths.workStartList)).map((d) => d.key)).not.toContain('leave');
    const start = await call(employee, 'POST', FlowPaths.leaveStart, {
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-02 09:00:00',
      reason: 'x',
      taskUser: ids.manager,
    });
    expect(start.status).toBe(400);
    expect(start.body.msg).toBe('流程定义已挂起,不能发起或办理');
    const blocked = await complete(manager, task?.taskId, true);
    expect(blocked.status).toBe(400);
    expect(blocked.body.msg).toBe('流程定义已挂起,不能发起或办理');
    await state('active');
    expect((await complete(manager, task?.taskId, true)).status).toBe(200);
    expect(await instanceStatus(leave.processInstanceId)).toBe(2);
  });

  it('refuses a model the linter or the parser refuses, with their messages', async () => {
    const noEnd = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="x">
  <process id="broken" isExecutable="true"><startEvent id="s" /></process></definitions>`;
    const lint = await call(admin, 'POST', '/blade-flow/model/submit', { xml: noEnd });
    expect(lint.status).toBe(400);
    // The rule's meaning in the caller's language, not bpmnlint's `end-event-required: Process is missing end event`.
    expect(lint.body.msg).toContain('流程缺少结束事件 (broken)');
    const lintEn = await t.as(admin, {
      method: 'POST',
      url: '/api/blade-flow/model/submit',
      payload: { xml: noEnd },
      headers: { 'accept-language': 'en' },
    });
    expect(lintEn.json<{ msg: string }>().msg).toContain('The process has no end event (broken)');
    const parse = await call(admin, 'POST', '/blade-flow/model/submit', { xml: '<definitions' });
    expect(parse.status).toBe(400);
    expect(parse.body.msg).toContain('XML: unparsable content');
    const script = await call(admin, 'POST', '/blade-flow/model/submit', {
      xml: timerModel('scripted').replace('<userTask id="wait"', '<scriptTask id="js" /><userTask id="wait"'),
    });
    expect(script.status).toBe(400);
    expect(script.body.msg).toContain('不支持的元素 脚本任务 (scriptTask): js');
    expect((await records(admin, '/blade-flow/model/list')).map((m) => m.modelKey)).not.toContain('broken');
  });

  it('saves a model and deploys it as a new version under a category', async () => {
    const id = await data(admin, 'POST', '/blade-flow/model/submit', { xml: timerModel('modelled'), description: 'm' });
    expect((await records(admin, '/blade-flow/model/list')).find((m) => m.id === id)).toMatchObject({
      modelKey: 'modelled',
      name: '定时流程',
      version: 1,
    });
    const first = (await data(admin, 'POST', `${FlowPaths.modelDeploy}?modelId=${id}&category=2`)) as unknown as Json[];
    const second = (await data(
      admin,
      'POST',
      `${FlowPaths.modelDeploy}?modelId=${id}&category=2`,
    )) as unknown as Json[];
    expect([first[0]?.version, second[0]?.version]).toEqual([1, 2]);
    const listed = await records(admin, '/blade-flow/manager/list', '&key=modelled');
    expect(listed.map((d) => [d.version, d.category, d.categoryName])).toEqual([
      [2, 2, '报销流程'],
      [1, 2, '报销流程'],
    ]);
    expect(listed[0]).not.toHaveProperty('xml');
    const other = await call(admin, 'POST', `${FlowPaths.modelDeploy}?modelId=${id}&tenantIds=999999`);
    expect(other.status).toBe(400);
  });

  it('deploys uploaded .bpmn and .bpmn20.xml files (multipart) and deletes a deployment', async () => {
    const boundary = '----mes-flow-boundary';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const file = (filename: string, xml: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: text/xml\r\n\r\n${xml}\r\n`;
    const upload = (files: string) =>
      t.as(admin, {
        method: 'POST',
        url: `/api${FlowPaths.managerDeployUpload}`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `${part('category', '1')}${part('tenantIds', '000000')}${files}--${boundary}--\r\n`,
      });
    const res = await upload(file('a.bpmn', timerModel('uploadA')) + file('b.bpmn20.xml', timerModel('uploadB')));
    expect(res.statusCode).toBe(200);
    const deployed = res.json().data as Json[];
    expect(deployed.map((d) => [d.key, d.version, d.tenantId])).toEqual([
      ['uploadA', 1, '000000'],
      ['uploadB', 1, '000000'],
    ]);
    const wrong = await upload(file('a.txt', timerModel('uploadC')));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().msg).toBe('文件 a.txt 不是 .bpmn 或 .bpmn20.xml 文件');
    const broken = await upload(file('c.bpmn', '<definitions'));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().msg).toContain('c.bpmn: XML: unparsable content');

    await data(admin, 'POST', FlowPaths.managerDeleteDeployment, { deploymentIds: deployed[0]?.deploymentId });
    expect(await records(admin, '/blade-flow/manager/list', '&key=uploadA')).toEqual([]);
  });
});

/** A process whose user task a boundary timer interrupts after `duration`, setting a variable on the way. */
function timerModel(key: string, duration = 'PT1H') {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:mes="http://www.mes-console.local/flow" id="d_${key}" targetNamespace="x">
  <process id="${key}" name="定时流程" isExecutable="true">
    <startEvent id="start"><outgoing>f1</outgoing></startEvent>
    <sequenceFlow id="f1" sourceRef="start" targetRef="wait" />
    <userTask id="wait" name="等待处理" flowable:assignee="\${initiator}"><incoming>f1</incoming><outgoing>f2</outgoing></userTask>
    <boundaryEvent id="timeout" attachedToRef="wait"><outgoing>f3</outgoing><timerEventDefinition><timeDuration>${duration}</timeDuration></timerEventDefinition></boundaryEvent>
    <sequenceFlow id="f2" sourceRef="wait" targetRef="end" />
    <sequenceFlow id="f3" sourceRef="timeout" targetRef="mark" />
    <serviceTask id="mark" name="标记超时" mes:service="set" mes:variable="late" mes:value="\${true}"><incoming>f3</incoming><outgoing>f4</outgoing></serviceTask>
    <sequenceFlow id="f4" sourceRef="mark" targetRef="escalated" />
    <userTask id="escalated" name="超时处理" flowable:candidateGroups="hr"><incoming>f4</incoming><outgoing>f5</outgoing></userTask>
    <sequenceFlow id="f5" sourceRef="escalated" targetRef="end" />
    <endEvent id="end"><incoming>f2</incoming><incoming>f5</incoming></endEvent>
  </process>
</definitions>`;
}

describe('the engine state lives in the database', () => {
  it('a second process (a restarted server) continues an instance where it stood', async () => {
    const leave = await startLeave(employee, 1);
    const [task] = await todoOf(manager, leave.processInstanceId);
    const second = await startSecondProcess(t);
    try {
      const res = await second.app.inject({
        method: 'POST',
        url: `/api${FlowPaths.workComplete}`,
        headers: { 'blade-auth': `bearer ${manager}` },
        payload: { taskId: task?.taskId, pass: true },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await second.close();
    }
    expect(await instanceStatus(leave.processInstanceId)).toBe(2);
  });

  it('a server killed (-9) in the middle of a move loses nothing: the move never happened, and can be made again', async () => {
    const leave = await startLeave(employee, 1);
    const [task] = await todoOf(manager, leave.processInstanceId);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/flow-kill-child.ts'], {
      cwd: path.join(import.meta.dirname, '..'),
      env: {
        ...process.env,
        DATABASE_URL: t.databaseUrl,
        TENANT: '000000',
        USER_ID: ids.manager,
        ACCOUNT: 'mgr',
        TASK_ID: String(task?.taskId),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await waitFor(() => out.includes('moved') || child.exitCode !== null, 60_000);
      expect(out).toContain('moved');
      // Written but not committed: nobody sees it.
      expect((await todoOf(manager, leave.processInstanceId)).map((r) => r.taskId)).toEqual([task?.taskId]);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const [row] = await t.ctx.db
      .select({ comment: flowTask.comment, status: flowTask.flowStatus })
      .from(flowTask)
      .where(eq(flowTask.id, String(task?.taskId)));
    expect(row).toEqual({ comment: null, status: 1 });
    expect(await instanceStatus(leave.processInstanceId)).toBe(1);
    expect((await complete(manager, task?.taskId, true, 'after the crash')).status).toBe(200);
    expect(await instanceStatus(leave.processInstanceId)).toBe(2);
    const history = (await data(
      employee,
      'GET',
      `${FlowPaths.historyFlowList}?processInstanceId=${leave.processInstanceId}`,
    )) as unknown as Json[];
    expect(history.filter((s) => s.historyActivityId === 'managerAudit').map((s) => s.comment)).toEqual([
      'after the crash',
    ]);
  }, 90_000);

  it('a boundary timer fires once through the durable queue with two server processes', async () => {
    await data(admin, 'POST', '/blade-flow/model/submit', { xml: timerModel('timed', 'PT1S') });
    const model = (await records(admin, '/blade-flow/model/list', '&modelKey=timed'))[0];
    await data(admin, 'POST', `${FlowPaths.modelDeploy}?modelId=${model?.id}`);
    const second = await startSecondProcess(t);
    try {
      const started = await data(employee, 'POST', FlowPaths.workStart, { processDefinitionKey: 'timed' });
      const instanceId = String(started.processInstanceId);
      expect((await todoOf(employee, instanceId)).map((r) => r.taskName)).toEqual(['等待处理']);
      await waitFor(
        async () => (await records(hr1, FlowPaths.workClaimList)).some((r) => r.processInstanceId === instanceId),
        30_000,
      );
      await waitFor(async () => {
        const jobs = await t.ctx.database.pool.query(`select state from pgboss.job where name = 'flow.timer'`);
        return jobs.rows.length > 0 && jobs.rows.every((r: { state: string }) => r.state === 'completed');
      }, 30_000);
      // One job, run once, by one of the two processes.
      const jobs = await t.ctx.database.pool.query(`select output from pgboss.job where name = 'flow.timer'`);
      expect(jobs.rows.map((r: { output: unknown }) => r.output)).toEqual([{ fired: true }]);
      const history = (await data(
        employee,
        'GET',
        `${FlowPaths.historyFlowList}?processInstanceId=${instanceId}`,
      )) as unknown as Json[];
      const ids = history.map((s) => s.historyActivityId);
      expect(ids.filter((id) => id === 'timeout')).toHaveLength(1);
      expect(ids.filter((id) => id === 'mark')).toHaveLength(1);
      expect(history.find((s) => s.historyActivityId === 'wait')).toMatchObject({ comment: '已取消', current: false });
      expect(history.filter((s) => s.current).map((s) => s.historyActivityId)).toEqual(['escalated']);
      expect(await todoOf(employee, instanceId)).toEqual([]);
      const [row] = await t.ctx.db
        .select({ state: flowInstance.state })
        .from(flowInstance)
        .where(and(eq(flowInstance.id, instanceId), sql`true`));
      expect(JSON.stringify(row?.state)).toContain('"late":true');
    } finally {
      await second.close();
    }
  }, 60_000);
});

describe('tenants', () => {
  it('never see each other’s definitions, instances or tasks', async () => {
    const leave = await startLeave(employee, 2, 'TENANT_A_ONLY');
    const [task] = await todoOf(manager, leave.processInstanceId);
    const boss = await signInToNewTenant(t, '100700', ['flow_manager:read', 'flow_follow:read', 'flow_model:read']);
    const theirs = await records(boss, FlowPaths.workStartList);
    expect(theirs.map((d) => d.key)).toEqual(['leave']);
    const ours = (await records(admin, '/blade-flow/manager/list')).map((d) => d.id);
    expect(ours).not.toContain(theirs[0]?.id);
    for (const path of [
      '/blade-flow/manager/list',
      '/blade-flow/follow/list',
      '/blade-flow/model/list',
      FlowPaths.workClaimList,
      FlowPaths.workTodoList,
      FlowPaths.workSendList,
    ]) {
      const res = await call(boss, 'GET', `${path}?size=100`);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain('TENANT_A_ONLY');
      for (const id of ours) expect(JSON.stringify(res.body)).not.toContain(String(id));
    }
    expect(
      (await call(boss, 'GET', `${FlowPaths.historyFlowList}?processInstanceId=${leave.processInstanceId}`)).status,
    ).toBe(404);
    expect((await call(boss, 'GET', `${FlowPaths.leaveDetail}?businessId=${leave.businessId}`)).status).toBe(404);
    expect((await call(boss, 'POST', FlowPaths.workClaim, { taskId: task?.taskId })).status).toBe(400);
    expect((await call(boss, 'POST', FlowPaths.workComplete, { taskId: task?.taskId })).status).toBe(400);
    expect(
      (await call(boss, 'POST', FlowPaths.managerChangeState, { processId: ours[0], state: 'suspend' })).status,
    ).toBe(403);
    expect((await call(boss, 'GET', `/blade-flow/process/resource-view?processDefinitionId=${ours[0]}`)).status).toBe(
      400,
    );
    expect(await instanceStatus(leave.processInstanceId)).toBe(1);
  });
});

/** Parallel branches: the applicant's and a department's, then a notice to HR, then the end. */
const PARALLEL_XML = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:mes="http://www.mes-console.local/flow" id="dp" targetNamespace="x">
  <process id="parallel" name="会签" isExecutable="true">
    <startEvent id="start"><outgoing>f1</outgoing></startEvent>
    <sequenceFlow id="f1" sourceRef="start" targetRef="fork" />
    <parallelGateway id="fork"><incoming>f1</incoming><outgoing>f2</outgoing><outgoing>f3</outgoing></parallelGateway>
    <sequenceFlow id="f2" sourceRef="fork" targetRef="mine" />
    <sequenceFlow id="f3" sourceRef="fork" targetRef="dept" />
    <userTask id="mine" name="本人确认" flowable:assignee="\${initiator}"><incoming>f2</incoming><outgoing>f4</outgoing></userTask>
    <userTask id="dept" name="部门确认" flowable:candidateGroups="\${dept}"><incoming>f3</incoming><outgoing>f5</outgoing></userTask>
    <sequenceFlow id="f4" sourceRef="mine" targetRef="join" />
    <sequenceFlow id="f5" sourceRef="dept" targetRef="join" />
    <parallelGateway id="join"><incoming>f4</incoming><incoming>f5</incoming><outgoing>f6</outgoing></parallelGateway>
    <sequenceFlow id="f6" sourceRef="join" targetRef="tell" />
    <serviceTask id="tell" name="通知人事" mes:service="notice" mes:roles="hr" mes:title="会签完成 \${code}" mes:content="&lt;b&gt;\${code}&lt;/b&gt;"><incoming>f6</incoming><outgoing>f7</outgoing></serviceTask>
    <sequenceFlow id="f7" sourceRef="tell" targetRef="end" />
    <endEvent id="end"><incoming>f7</incoming></endEvent>
  </process>
</definitions>`;

describe('gateways, groups and service tasks', () => {
  it('runs parallel branches, offers a department’s task to its members, and sends the notice', async () => {
    const upload = await t.as(admin, {
      method: 'POST',
      url: `/api${FlowPaths.managerDeployUpload}`,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      payload: `--b\r\nContent-Disposition: form-data; name="files"; filename="p.bpmn"\r\n\r\n${PARALLEL_XML}\r\n--b--\r\n`,
    });
    expect(upload.statusCode).toBe(200);
    const started = await data(employee, 'POST', FlowPaths.workStart, {
      processDefinitionKey: 'parallel',
      businessKey: 'PX-1',
      variables: { dept: DEPT_IDS.east, code: 'PX-1' },
    });
    const instanceId = String(started.processInstanceId);
    const [mine] = await todoOf(employee, instanceId);
    expect(mine).toMatchObject({ taskName: '本人确认', businessId: 'PX-1' });
    // Every user of the east branch may claim the department's task (the seeded users sit there).
    const claimable = (await records(outsider, FlowPaths.workClaimList)).filter(
      (r) => r.processInstanceId === instanceId,
    );
    expect(claimable.map((r) => [r.taskName, r.candidateGroups])).toEqual([['部门确认', DEPT_IDS.east]]);

    const follow = (await records(admin, '/blade-flow/follow/list', '&businessId=PX-1'))[0];
    expect(follow).toMatchObject({ processDefinitionName: '会签', startUserName: 'emp', flowStatus: 1 });
    expect((follow?.currentTasks as Json[]).map((c) => c.taskName).sort()).toEqual(['本人确认', '部门确认'].sort());

    expect((await complete(employee, mine?.taskId, true)).status).toBe(200);
    expect(await instanceStatus(instanceId)).toBe(1);
    expect((await call(outsider, 'POST', FlowPaths.workClaim, { taskId: claimable[0]?.taskId })).status).toBe(200);
    expect((await complete(outsider, claimable[0]?.taskId, true)).status).toBe(200);
    expect(await instanceStatus(instanceId)).toBe(2);

    const inbox = (await data(hr1, 'GET', '/blade-desk/notice/inbox?size=50')).records as Json[];
    const sent = inbox.find((n) => n.title === '会签完成 PX-1');
    expect(sent).toBeDefined();
    const view = await data(hr1, 'GET', `/blade-desk/notice/view?id=${sent?.id}`);
    expect(view.content).toBe('<p>&#60;b&#62;PX-1&#60;/b&#62;</p>');
    const others = (await data(employee, 'GET', '/blade-desk/notice/inbox?size=50')).records as Json[];
    expect(others.map((n) => n.title)).not.toContain('会签完成 PX-1');
  });

  it('deletes a running instance with a reason: its tasks are cancelled and the history says why', async () => {
    const leave = await startLeave(employee, 1);
    const missing = await call(admin, 'POST', FlowPaths.followDelete, { processInstanceId: leave.processInstanceId });
    expect(missing.status).toBe(400);
    await data(admin, 'POST', FlowPaths.followDelete, {
      processInstanceId: leave.processInstanceId,
      deleteReason: '重复申请',
    });
    expect(await instanceStatus(leave.processInstanceId)).toBe(3);
    expect(await todoOf(manager, leave.processInstanceId)).toEqual([]);
    const history = (await data(
      employee,
      'GET',
      `${FlowPaths.historyFlowList}?processInstanceId=${leave.processInstanceId}`,
    )) as unknown as Json[];
    expect(history.slice(-2).map((s) => [s.historyActivityId, s.comment])).toEqual([
      ['managerAudit', '重复申请'],
      ['deleted', '重复申请'],
    ]);
    expect((await records(admin, '/blade-flow/follow/list')).map((r) => r.id)).not.toContain(leave.processInstanceId);
    // The administrators' workflow actions are in the operation log, with who and why.
    const logged = await t.ctx.database.pool.query<{ resource_code: string; operation: string; changes: string }>(
      `select resource_code, operation, changes from blade_log_operation where resource_code like 'flow%' order by create_time`,
    );
    const kinds = logged.rows.map((r) => `${r.resource_code}:${r.operation}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'flow_manager:add',
        'flow_manager:update',
        'flow_deployment:remove',
        'flow_follow:remove',
      ]),
    );
    expect(logged.rows.find((r) => r.resource_code === 'flow_follow')?.changes).toContain('重复申请');
  });
});

const subProcess = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" xmlns:mes="http://www.mes-console.local/flow" id="ds" targetNamespace="x">
  <process id="sub" name="子流程" isExecutable="true">
    <startEvent id="s"><outgoing>a</outgoing></startEvent>
    <sequenceFlow id="a" sourceRef="s" targetRef="check" />
    <userTask id="check" name="子流程确认" flowable:assignee="\${initiator}"><incoming>a</incoming><outgoing>b</outgoing></userTask>
    <sequenceFlow id="b" sourceRef="check" targetRef="mark" />
    <serviceTask id="mark" name="记录结果" mes:service="set" mes:variable="approved" mes:value="\${pass}"><incoming>b</incoming><outgoing>c</outgoing></serviceTask>
    <sequenceFlow id="c" sourceRef="mark" targetRef="e" />
    <endEvent id="e"><incoming>c</incoming></endEvent>
  </process>
</definitions>`;
const callingProcess = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:flowable="http://flowable.org/bpmn" id="dc" targetNamespace="x">
  <process id="caller" name="主流程" isExecutable="true">
    <startEvent id="s"><outgoing>a</outgoing></startEvent>
    <sequenceFlow id="a" sourceRef="s" targetRef="call" />
    <callActivity id="call" name="调用子流程" calledElement="sub"><incoming>a</incoming><outgoing>b</outgoing></callActivity>
    <sequenceFlow id="b" sourceRef="call" targetRef="gw" />
    <exclusiveGateway id="gw" default="no"><incoming>b</incoming><outgoing>yes</outgoing><outgoing>no</outgoing></exclusiveGateway>
    <sequenceFlow id="yes" sourceRef="gw" targetRef="after"><conditionExpression xsi:type="tFormalExpression">\${approved}</conditionExpression></sequenceFlow>
    <sequenceFlow id="no" sourceRef="gw" targetRef="e2" />
    <userTask id="after" name="主流程继续" flowable:assignee="\${initiator}"><incoming>yes</incoming><outgoing>c</outgoing></userTask>
    <sequenceFlow id="c" sourceRef="after" targetRef="e" />
    <endEvent id="e"><incoming>c</incoming></endEvent>
    <endEvent id="e2"><incoming>no</incoming></endEvent>
  </process>
</definitions>`;

describe('call activities', () => {
  it('start the called process as an instance of its own, and continue the caller with its variables when it ends', async () => {
    for (const [name, xml] of [
      ['sub.bpmn', subProcess],
      ['caller.bpmn', callingProcess],
    ]) {
      const res = await t.as(admin, {
        method: 'POST',
        url: `/api${FlowPaths.managerDeployUpload}`,
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        payload: `--b\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n\r\n${xml}\r\n--b--\r\n`,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const started = await data(employee, 'POST', FlowPaths.workStart, {
      processDefinitionKey: 'caller',
      businessKey: 'CALL-1',
    });
    const callerId = String(started.processInstanceId);
    const [subTask] = (await records(employee, FlowPaths.workTodoList)).filter((r) => r.businessId === 'CALL-1');
    expect(subTask).toMatchObject({ taskName: '子流程确认', processDefinitionKey: 'sub' });
    expect(subTask?.processInstanceId).not.toBe(callerId);
    const [child] = await t.ctx.db
      .select({ parent: flowInstance.parentInstanceId, status: flowInstance.flowStatus })
      .from(flowInstance)
      .where(eq(flowInstance.id, String(subTask?.processInstanceId)));
    expect(child).toEqual({ parent: callerId, status: 1 });

    expect((await complete(employee, subTask?.taskId, true)).status).toBe(200);
    expect(await instanceStatus(String(subTask?.processInstanceId))).toBe(2);
    // approved=true came out of the called process and took the caller's gateway to its task.
    const [after] = await todoOf(employee, callerId);
    expect(after).toMatchObject({ taskName: '主流程继续' });
    const history = (await data(
      employee,
      'GET',
      `${FlowPaths.historyFlowList}?processInstanceId=${callerId}`,
    )) as unknown as Json[];
    expect(history.map((h) => h.historyActivityId)).toEqual(['s', 'call', 'gw', 'after']);
    expect((await complete(employee, after?.taskId, true)).status).toBe(200);
    expect(await instanceStatus(callerId)).toBe(2);
  });

  it('end with their caller when it is deleted, and refuse a model that calls itself', async () => {
    const started = await data(employee, 'POST', FlowPaths.workStart, {
      processDefinitionKey: 'caller',
      businessKey: 'CALL-2',
    });
    const callerId = String(started.processInstanceId);
    const [subTask] = (await records(employee, FlowPaths.workTodoList)).filter((r) => r.businessId === 'CALL-2');
    await data(admin, 'POST', FlowPaths.followDelete, { processInstanceId: callerId, deleteReason: '不再需要' });
    expect(await instanceStatus(callerId)).toBe(3);
    expect(await instanceStatus(String(subTask?.processInstanceId))).toBe(3);
    expect((await records(employee, FlowPaths.workTodoList)).filter((r) => r.businessId === 'CALL-2')).toEqual([]);

    const selfCall = await call(admin, 'POST', '/blade-flow/model/submit', {
      xml: callingProcess.replace('calledElement="sub"', 'calledElement="caller"'),
    });
    expect(selfCall.status).toBe(400);
    expect(selfCall.body.msg).toContain('调用活动 call 不能调用本流程 (caller)');
  });
});

import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowPaths, type FlowInstanceForm, type FlowStartForm, type FlowTaskForm } from '@mes/contracts';
import { role } from '../src/platform/db/schema';
import { signInToNewTenant, signInWithScopes } from './support/scoped-user';
import { apiCalls, createTestApp, type TestApp } from './support/test-app';

/**
 * Generic start and task forms (docs/workflow.md, "Forms"): the repair request of
 * docs/examples/repair-request.bpmn declares its fields in the model; the server reads them from
 * the deployed definition, refuses bad values naming the field, and the values become variables.
 */
const REPAIR_XML = readFileSync(new URL('../../../docs/examples/repair-request.bpmn', import.meta.url), 'utf8');

let t: TestApp;
let admin: string;
let employee: string;
let manager: string;
let otherTenant: string;
let definitionId: string;

type Json = Record<string, unknown>;
const { call, data } = apiCalls(() => t);

const goodRequest = {
  device: 'DEV-001 灭菌器',
  fault: '门封漏气',
  faultType: 'electrical',
  urgent: true,
  needBy: '2026-12-24',
};
const start = (token: string, variables: Json, lang?: string) =>
  call(token, 'POST', FlowPaths.workStart, { processDefinitionId: definitionId, variables }, lang);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.signIn()).access_token;
  const [managerRole] = await t.ctx.db.select({ id: role.id }).from(role).where(eq(role.roleAlias, 'manager'));
  employee = await signInWithScopes(t, { account: 'ff_emp', codes: [] });
  manager = await signInWithScopes(t, { account: 'ff_mgr', codes: [], roleId: String(managerRole?.id) });
  otherTenant = await signInToNewTenant(t, '300301', ['flow_manager:read', 'flow_follow:read']);
  const modelId = await data<string>(admin, 'POST', '/blade-flow/model/submit', { xml: REPAIR_XML });
  const [deployed] = await data<{ processDefinitionId: string }[]>(
    admin,
    'POST',
    `${FlowPaths.modelDeploy}?modelId=${modelId}&category=2`,
  );
  definitionId = deployed!.processDefinitionId;
}, 120_000);
afterAll(() => t.close());

describe('start form', () => {
  it('is read from the deployed definition, fields in the model’s order with types, choices and constraints', async () => {
    const form = await data<FlowStartForm>(
      employee,
      'GET',
      `${FlowPaths.startForm}?processDefinitionId=${definitionId}`,
    );
    expect(form).toMatchObject({ key: 'repair_request', name: '设备维修申请', version: 1, formKey: '' });
    expect(form.fields.map((f) => [f.id, f.type, f.required])).toEqual([
      ['device', 'string', true],
      ['fault', 'string', true],
      ['faultType', 'enum', false],
      ['urgent', 'boolean', false],
      ['needBy', 'date', false],
    ]);
    expect(form.fields[0]).toMatchObject({ label: '设备', maxlength: 64 });
    expect(form.fields[2]).toMatchObject({
      defaultValue: 'mechanical',
      values: [
        { id: 'mechanical', name: '机械' },
        { id: 'electrical', name: '电气' },
        { id: 'other', name: '其他' },
      ],
    });
  });

  it('names the leave’s built-in form for the seeded leave', async () => {
    const list = await data<{ records: { id: string; key: string }[] }>(employee, 'GET', FlowPaths.workStartList);
    const leave = list.records.find((r) => r.key === 'leave');
    const form = await data<FlowStartForm>(employee, 'GET', `${FlowPaths.startForm}?processDefinitionId=${leave?.id}`);
    expect(form).toMatchObject({ formKey: 'leave', fields: [] });
  });

  it('refuses what the form refuses, naming the field, in the caller’s language, and starts nothing', async () => {
    const before = (await data<{ total: number }>(employee, 'GET', FlowPaths.workSendList)).total;
    const cases: [Json, string, string][] = [
      [{ ...goodRequest, device: '' }, '请填写 设备 (device)', 'device (设备) is required'],
      [{ ...goodRequest, fault: undefined }, '请填写 故障描述 (fault)', 'fault (故障描述) is required'],
      [{ ...goodRequest, device: 'x'.repeat(65) }, '设备 (device) 最多 64 个字符', 'at most 64 characters'],
      [{ ...goodRequest, faultType: 'hydraulic' }, '应为 mechanical, electrical, other 之一', 'must be one of'],
      [{ ...goodRequest, urgent: 'yes' }, '紧急 (urgent) 应为是或否', 'must be true or false'],
      [{ ...goodRequest, needBy: '2026-02-30' }, '期望完成日期 (needBy) 应为日期', 'must be a date'],
      [{ ...goodRequest, approver: '1' }, '表单没有字段 approver', 'The form has no field approver'],
    ];
    for (const [variables, zh, en] of cases) {
      const refused = await start(employee, variables);
      expect(refused.status, zh).toBe(400);
      expect(refused.body.msg).toContain(zh);
      const english = await start(employee, variables, 'en');
      expect(english.status, en).toBe(400);
      expect(english.body.msg).toContain(en);
    }
    expect((await data<{ total: number }>(employee, 'GET', FlowPaths.workSendList)).total).toBe(before);
  });
});

describe('a repair request end to end', () => {
  let instanceId: string;
  let taskId: string;

  it('starts with the form’s values as typed variables', async () => {
    const started = await start(employee, { ...goodRequest, urgent: 'true', needBy: ' 2026-12-24 ' });
    expect(started.status).toBe(200);
    instanceId = (started.body.data as { processInstanceId: string }).processInstanceId;
    const detail = await data<FlowInstanceForm>(
      employee,
      'GET',
      `${FlowPaths.instanceForm}?processInstanceId=${instanceId}`,
    );
    expect(detail).toMatchObject({ processDefinitionName: '设备维修申请', startUserName: 'ff_emp', flowStatus: 1 });
    expect(detail.start.values).toEqual({
      device: 'DEV-001 灭菌器',
      fault: '门封漏气',
      faultType: 'electrical',
      urgent: true,
      needBy: '2026-12-24',
    });
    expect(detail.flow.find((s) => s.current)?.historyActivityName).toBe('主管审批');
  });

  it('gives the approver the task’s form with the request beside it, and checks it on completion', async () => {
    const claimable = await data<{ records: { taskId: string; processInstanceId: string }[] }>(
      manager,
      'GET',
      FlowPaths.workClaimList,
    );
    taskId = claimable.records.find((r) => r.processInstanceId === instanceId)!.taskId;
    await data(manager, 'POST', FlowPaths.workClaim, { taskId });
    const form = await data<FlowTaskForm>(manager, 'GET', `${FlowPaths.taskForm}?taskId=${taskId}`);
    expect(form).toMatchObject({ taskName: '主管审批', open: true, processInstanceId: instanceId });
    expect(form.fields.map((f) => [f.id, f.type, f.required, f.min])).toEqual([
      ['plan', 'string', true, undefined],
      ['cost', 'long', false, 0],
    ]);
    expect(form.start.values).toMatchObject({ device: 'DEV-001 灭菌器', urgent: true });
    // The starter sees it too, but may not complete it.
    expect((await data<FlowTaskForm>(employee, 'GET', `${FlowPaths.taskForm}?taskId=${taskId}`)).open).toBe(false);

    const passWithoutPlan = await call(manager, 'POST', FlowPaths.workComplete, { taskId, pass: true });
    expect(passWithoutPlan.status).toBe(400);
    expect(passWithoutPlan.body.msg).toContain('请填写 维修方案 (plan)');
    const negative = await call(manager, 'POST', FlowPaths.workComplete, {
      taskId,
      pass: true,
      variables: { plan: '更换门封', cost: -5 },
    });
    expect(negative.body.msg).toContain('预计费用(元) (cost) 不能小于 0');
    const fixedName = await call(manager, 'POST', FlowPaths.workComplete, {
      taskId,
      pass: true,
      variables: { plan: '更换门封', device: 'other' },
    });
    expect(fixedName.status).toBe(400);
    expect(fixedName.body.msg).toContain('表单没有字段 device');

    const done = await call(manager, 'POST', FlowPaths.workComplete, {
      taskId,
      pass: true,
      comment: '同意维修',
      variables: { plan: '更换门封', cost: '350' },
    });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ finished: true });
    const detail = await data<FlowInstanceForm>(
      employee,
      'GET',
      `${FlowPaths.instanceForm}?processInstanceId=${instanceId}`,
    );
    expect(detail.flowStatus).toBe(2);
    expect(detail.flow.find((s) => s.taskId === taskId)).toMatchObject({ comment: '同意维修', isPass: true });
    expect(detail.start.values.device).toBe('DEV-001 灭菌器');
  });

  it('lets a rejection leave required task fields empty', async () => {
    const started = await start(employee, { device: 'DEV-002', fault: '不加热' });
    const id = (started.body.data as { processInstanceId: string }).processInstanceId;
    const claimable = await data<{ records: { taskId: string; processInstanceId: string }[] }>(
      manager,
      'GET',
      FlowPaths.workClaimList,
    );
    const task = claimable.records.find((r) => r.processInstanceId === id)!.taskId;
    await data(manager, 'POST', FlowPaths.workClaim, { taskId: task });
    const rejected = await call(manager, 'POST', FlowPaths.workComplete, {
      taskId: task,
      pass: false,
      comment: '先报备',
    });
    expect(rejected.status).toBe(200);
    const detail = await data<FlowInstanceForm>(employee, 'GET', `${FlowPaths.instanceForm}?processInstanceId=${id}`);
    // Unticked is "no"; an enum left empty keeps no value.
    expect(detail.start.values).toEqual({ device: 'DEV-002', fault: '不加热', urgent: false });
  });

  it('keeps every form and instance to its tenant and its participants', async () => {
    for (const url of [
      `${FlowPaths.startForm}?processDefinitionId=${definitionId}`,
      `${FlowPaths.taskForm}?taskId=${taskId}`,
      `${FlowPaths.instanceForm}?processInstanceId=${instanceId}`,
    ]) {
      const res = await call(otherTenant, 'GET', url);
      expect(res.status, url).not.toBe(200);
      expect(JSON.stringify(res.body), url).not.toContain('灭菌器');
    }
    const other = await call(otherTenant, 'POST', FlowPaths.workStart, {
      processDefinitionId: definitionId,
      variables: goodRequest,
    });
    expect(other.body.success).toBe(false);
    // A user of the tenant who takes no part in the request does not see it.
    const bystander = await signInWithScopes(t, { account: 'ff_other', codes: [] });
    expect((await call(bystander, 'GET', `${FlowPaths.instanceForm}?processInstanceId=${instanceId}`)).status).toBe(
      404,
    );
  });
});

describe('forms in a model', () => {
  const model = (field: string) =>
    REPAIR_XML.replace('<camunda:formField id="urgent" label="紧急" type="boolean" />', field);
  it.each([
    ['<camunda:formField id="urgent" type="float" />', '不支持的字段类型 float'],
    ['<camunda:formField id="urgent" type="enum" />', '枚举字段应列出取值'],
    ['<camunda:formField id="initiator" type="string" />', '不能使用系统变量名 initiator'],
    ['<camunda:formField id="device" type="string" />', '表单字段 device 重复'],
    [
      '<camunda:formField id="urgent" type="string"><camunda:validation><camunda:constraint name="validator" config="x" /></camunda:validation></camunda:formField>',
      '不支持的校验 validator',
    ],
  ])('refuses %s at save', async (field, problem) => {
    const res = await call(admin, 'POST', '/blade-flow/model/submit', { xml: model(field) });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(problem);
  });
});

describe('the workflow paths of the contracts', () => {
  it('are every one a route the server serves', () => {
    const served = new Set(t.app.apiRoutes.map((r) => r.url));
    const missing = Object.entries(FlowPaths).filter(([, path]) => !served.has(`/api${path}`));
    expect(missing).toEqual([]);
  });
});

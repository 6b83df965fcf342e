import { defineResource, type FieldDef } from '../../engine/define';
import { defineScreen } from '../../engine/menu-placement';

/**
 * Workflow on a BPMN engine (docs/workflow.md). Models are edited, deployed into versioned process
 * definitions, started as instances whose engine state lives in `mes_flow_instance.state`, and
 * moved by user tasks (`mes_flow_task`); every step is kept in `mes_flow_history`.
 */

/** `suspensionState` of a definition, as the family's screens read it: 1 active, 2 suspended. */
export const FlowSuspension = { active: 1, suspended: 2 } as const;
/** `flowStatus` of an instance: 1 running, 2 finished, 3 deleted (with a reason). */
export const FlowInstanceStatus = { running: 1, finished: 2, deleted: 3 } as const;
/** `flowStatus` of a task: 1 open, 2 completed, 3 cancelled (its instance deleted or a timer interrupted it). */
export const FlowTaskStatus = { open: 1, completed: 2, cancelled: 3 } as const;

type Extra = Partial<Omit<FieldDef, 'kind'>>;
const readonlyText = <const E extends Extra = Record<never, never>>(zh: string, en: string, max = 64, extra?: E) =>
  ({ kind: 'string', label: { zh, en }, max, form: 'readonly', ...(extra as E) }) as const;
const time = <const E extends Extra = Record<never, never>>(zh: string, en: string, extra?: E) =>
  ({ kind: 'datetime', label: { zh, en }, nullable: true, form: 'readonly', width: 160, ...(extra as E) }) as const;
const idField = <const E extends Extra = Record<never, never>>(zh: string, en: string, extra?: E) =>
  ({ kind: 'id', label: { zh, en }, nullable: true, form: 'readonly', ...(extra as E) }) as const;

/** A BPMN model being edited (`/blade-flow/model`): the XML, linted on every save. */
export const flowModelResource = defineResource({
  code: 'flow_model',
  title: { zh: '模型管理', en: 'Models' },
  table: 'mes_flow_model',
  api: '/blade-flow/model',
  owner: 'tenant',
  operations: ['list', 'detail', 'submit', 'remove'],
  menu: {
    group: 'flow',
    sort: 1,
    icon: 'partition',
    buttons: [{ action: 'deploy', name: { zh: '部署', en: 'Deploy' } }],
    scopes: [{ action: 'deploy', name: '模型部署', path: '/api/blade-flow/model/deploy' }],
  },
  fields: {
    // Taken from the XML's executable process (its id and name) on every save.
    modelKey: readonlyText('模型标识', 'Model key', 255, { search: true, sort: true, width: 160 }),
    name: readonlyText('模型名称', 'Name', 255, { search: true, width: 180 }),
    description: { kind: 'string', label: { zh: '模型描述', en: 'Description' }, max: 500, nullable: true },
    version: { kind: 'int', label: { zh: '版本', en: 'Version' }, default: 1, form: 'readonly', width: 80 },
    xml: {
      kind: 'text',
      label: { zh: '模型XML', en: 'Model XML' },
      required: true,
      list: false,
      max: 1_000_000,
    },
  },
  defaultSort: [{ field: 'modelKey' }],
});

/** One deploy: a model deployed, or the files of one upload. */
export const flowDeploymentResource = defineResource({
  code: 'flow_deployment',
  title: { zh: '流程部署记录', en: 'Deployments' },
  table: 'mes_flow_deployment',
  api: '/blade-flow/deployment',
  owner: 'tenant',
  operations: [],
  fields: {
    name: readonlyText('部署名称', 'Name', 255),
    category: { kind: 'int', label: { zh: '流程分类', en: 'Category' }, options: { dict: 'flow' }, nullable: true },
    deploymentTime: time('部署时间', 'Deployed at'),
    // Where it came from: `model:<id>`, `upload`, `seed`.
    source: readonlyText('来源', 'Source', 64),
  },
});

/** A deployed, versioned process definition (`/blade-flow/manager`). */
export const flowDefinitionResource = defineResource({
  code: 'flow_manager',
  title: { zh: '流程管理', en: 'Deployments' },
  table: 'mes_flow_definition',
  api: '/blade-flow/manager',
  owner: 'tenant',
  operations: ['list', 'detail'],
  menu: {
    group: 'flow',
    sort: 2,
    icon: 'deployment-unit',
    buttons: [
      { action: 'state', name: { zh: '变更状态', en: 'Suspend / activate' } },
      { action: 'remove', name: { zh: '删除部署', en: 'Delete deployment' } },
      { action: 'upload', name: { zh: '上传部署', en: 'Upload and deploy' }, position: 1 },
    ],
    scopes: [
      { action: 'state', name: '流程状态变更', path: '/api/blade-flow/manager/change-state' },
      { action: 'remove', name: '流程部署删除', path: '/api/blade-flow/manager/delete-deployment' },
      { action: 'upload', name: '流程上传部署', path: '/api/blade-flow/manager/deploy-upload' },
    ],
  },
  fields: {
    key: readonlyText('流程标识', 'Process key', 255, { search: true, sort: true, width: 160 }),
    name: readonlyText('流程名称', 'Name', 255, { search: true, width: 180 }),
    version: { kind: 'int', label: { zh: '版本', en: 'Version' }, default: 1, form: 'readonly', sort: true, width: 80 },
    category: {
      kind: 'int',
      label: { zh: '流程分类', en: 'Category' },
      options: { dict: 'flow' },
      nullable: true,
      search: true,
      width: 110,
    },
    deploymentId: idField('部署编号', 'Deployment'),
    deploymentTime: time('部署时间', 'Deployed at', { sort: true }),
    resourceName: readonlyText('资源名称', 'Resource', 255, { list: false }),
    suspensionState: {
      kind: 'int',
      label: { zh: '状态', en: 'State' },
      default: FlowSuspension.active,
      range: [1, 2],
      form: 'readonly',
      search: true,
      width: 90,
      options: {
        items: [
          { value: FlowSuspension.active, label: { zh: '激活', en: 'Active' } },
          { value: FlowSuspension.suspended, label: { zh: '挂起', en: 'Suspended' } },
        ],
      },
    },
    description: readonlyText('描述', 'Description', 500, { nullable: true, list: false }),
    xml: { kind: 'text', label: { zh: '流程XML', en: 'XML' }, list: false, form: 'readonly', max: 1_000_000 },
    // What the server read from the XML once, at deploy: user tasks, service tasks, names.
    meta: {
      kind: 'json',
      label: { zh: '流程元数据', en: 'Metadata' },
      schema: { type: 'object' },
      max: 1_000_000,
      list: false,
      form: false,
    },
  },
  indexes: [{ name: 'mes_flow_definition_key_idx', fields: ['tenantId', 'key', 'version'] }],
  defaultSort: [{ field: 'key' }, { field: 'version', desc: true }],
});

/** A running or finished process instance (`/blade-flow/follow` lists the running ones). */
export const flowInstanceResource = defineResource({
  code: 'flow_follow',
  title: { zh: '流程跟踪', en: 'Follow-up' },
  table: 'mes_flow_instance',
  api: '/blade-flow/follow',
  owner: 'tenant',
  operations: ['list'],
  menu: {
    group: 'flow',
    sort: 3,
    icon: 'monitor',
    buttons: [{ action: 'remove', name: { zh: '删除实例', en: 'Delete instance' } }],
    scopes: [{ action: 'remove', name: '流程实例删除', path: '/api/blade-flow/follow/delete-process-instance' }],
  },
  fields: {
    processDefinitionId: idField('流程定义', 'Definition'),
    processDefinitionKey: readonlyText('流程标识', 'Process key', 255, { search: true }),
    processDefinitionName: readonlyText('流程名称', 'Process', 255, { search: true, width: 160 }),
    processDefinitionVersion: { kind: 'int', label: { zh: '版本', en: 'Version' }, default: 1, form: 'readonly' },
    category: { kind: 'int', label: { zh: '流程分类', en: 'Category' }, options: { dict: 'flow' }, nullable: true },
    businessTable: readonlyText('业务表', 'Business table', 64, { nullable: true, list: false }),
    businessId: readonlyText('业务编号', 'Business key', 64, { nullable: true, search: true }),
    startUser: idField('发起人', 'Started by'),
    startUserName: readonlyText('发起人', 'Started by', 64, { search: true, width: 110 }),
    startTime: time('开始时间', 'Started', { sort: true, search: true }),
    endTime: time('结束时间', 'Ended', { sort: true }),
    flowStatus: {
      kind: 'int',
      label: { zh: '流程状态', en: 'Status' },
      default: FlowInstanceStatus.running,
      range: [1, 3],
      form: 'readonly',
      search: true,
      width: 90,
      options: {
        items: [
          { value: FlowInstanceStatus.running, label: { zh: '运行中', en: 'Running' } },
          { value: FlowInstanceStatus.finished, label: { zh: '已完成', en: 'Finished' } },
          { value: FlowInstanceStatus.deleted, label: { zh: '已删除', en: 'Deleted' } },
        ],
      },
    },
    deleteReason: readonlyText('删除原因', 'Delete reason', 500, { nullable: true, list: false }),
    // A call activity's instance: the calling instance and the execution waiting for it there.
    parentInstanceId: idField('上级流程实例', 'Calling instance', { list: false }),
    parentExecutionId: readonlyText('上级执行编号', 'Calling execution', 128, { nullable: true, list: false }),
    // The engine's getState(), written in the transaction that moved the instance.
    state: {
      kind: 'json',
      label: { zh: '引擎状态', en: 'Engine state' },
      schema: { type: 'object' },
      max: 10_000_000,
      nullable: true,
      list: false,
      form: false,
    },
    // Names the server set at start (the starter, the business row's values): a task cannot overwrite them.
    fixedVariables: {
      kind: 'json',
      label: { zh: '固定变量', en: 'Fixed variables' },
      schema: { type: 'array' },
      nullable: true,
      list: false,
      form: false,
    },
  },
  indexes: [
    { name: 'mes_flow_instance_status_idx', fields: ['tenantId', 'flowStatus', 'startTime'] },
    { name: 'mes_flow_instance_parent_idx', fields: ['tenantId', 'parentInstanceId'] },
  ],
  defaultSort: [{ field: 'startTime', desc: true }],
});

/** A user task of an instance: who may claim it, who holds it, how it ended. */
export const flowTaskResource = defineResource({
  code: 'flow_task',
  title: { zh: '流程任务', en: 'Tasks' },
  table: 'mes_flow_task',
  api: '/blade-flow/work',
  owner: 'tenant',
  operations: [],
  fields: {
    processInstanceId: idField('流程实例', 'Instance'),
    processDefinitionId: idField('流程定义', 'Definition'),
    processDefinitionKey: readonlyText('流程标识', 'Process key', 255, { search: true }),
    processDefinitionName: readonlyText('流程名称', 'Process', 255, { search: true }),
    category: {
      kind: 'int',
      label: { zh: '流程分类', en: 'Category' },
      options: { dict: 'flow' },
      nullable: true,
      search: true,
    },
    // The engine's execution of the waiting element: the task's identity inside the state.
    executionId: readonlyText('执行编号', 'Execution', 128),
    taskDefinitionKey: readonlyText('节点标识', 'Element', 255),
    taskName: readonlyText('任务名称', 'Task', 255, { search: true, sort: true }),
    assignee: idField('办理人', 'Assignee', { search: true }),
    assigneeName: readonlyText('办理人', 'Assignee', 64),
    candidateUsers: {
      kind: 'string',
      label: { zh: '候选人', en: 'Candidate users' },
      max: 2000,
      nullable: true,
      form: 'readonly',
    },
    candidateGroups: {
      kind: 'string',
      label: { zh: '候选组', en: 'Candidate groups' },
      max: 2000,
      nullable: true,
      form: 'readonly',
    },
    businessTable: readonlyText('业务表', 'Business table', 64, { nullable: true }),
    businessId: readonlyText('业务编号', 'Business key', 64, { nullable: true, search: true }),
    startUser: idField('发起人', 'Started by'),
    startUserName: readonlyText('发起人', 'Started by', 64),
    formKey: readonlyText('表单', 'Form key', 255, { nullable: true }),
    createdAt: time('创建时间', 'Created', { sort: true, search: true }),
    claimTime: time('签收时间', 'Claimed', { sort: true }),
    endTime: time('完成时间', 'Completed', { sort: true }),
    flowStatus: {
      kind: 'int',
      label: { zh: '任务状态', en: 'Status' },
      default: FlowTaskStatus.open,
      range: [1, 3],
      search: true,
    },
    isPass: { kind: 'boolean', label: { zh: '是否通过', en: 'Passed' }, nullable: true },
    comment: readonlyText('审批意见', 'Comment', 1000, { nullable: true }),
  },
  indexes: [
    { name: 'mes_flow_task_instance_idx', fields: ['tenantId', 'processInstanceId'] },
    { name: 'mes_flow_task_assignee_idx', fields: ['tenantId', 'assignee', 'flowStatus'] },
  ],
  defaultSort: [{ field: 'createdAt', desc: true }],
});

/** Every step an instance took: events, gateways, service and user tasks, with times and who. */
export const flowHistoryResource = defineResource({
  code: 'flow_history',
  title: { zh: '流程历史', en: 'History' },
  table: 'mes_flow_history',
  api: '/blade-flow/process',
  owner: 'tenant',
  operations: [],
  fields: {
    processInstanceId: idField('流程实例', 'Instance'),
    activityId: readonlyText('节点标识', 'Element', 255),
    activityName: readonlyText('节点名称', 'Element name', 255, { nullable: true }),
    activityType: readonlyText('节点类型', 'Element type', 64),
    taskId: idField('任务', 'Task'),
    assignee: idField('办理人', 'Assignee'),
    assigneeName: readonlyText('办理人', 'Assignee', 64, { nullable: true }),
    startTime: time('开始时间', 'Started'),
    endTime: time('结束时间', 'Ended'),
    durationMs: { kind: 'int', label: { zh: '耗时(毫秒)', en: 'Duration (ms)' }, nullable: true, form: 'readonly' },
    comment: readonlyText('审批意见', 'Comment', 1000, { nullable: true }),
    isPass: { kind: 'boolean', label: { zh: '是否通过', en: 'Passed' }, nullable: true },
    // Which step of the instance this is (ordering within one millisecond).
    seq: { kind: 'int', label: { zh: '序号', en: 'Step' }, default: 0, form: 'readonly' },
  },
  indexes: [{ name: 'mes_flow_history_instance_idx', fields: ['tenantId', 'processInstanceId', 'seq'] }],
});

/** A leave request (`/blade-desk/process/leave`): the business row of the seeded leave process. */
export const leaveResource = defineResource({
  code: 'process_leave',
  title: { zh: '请假流程', en: 'Leave' },
  table: 'mes_process_leave',
  api: '/blade-desk/process/leave',
  owner: 'tenant',
  operations: [],
  fields: {
    processDefinitionId: idField('流程定义', 'Definition'),
    processInstanceId: idField('流程实例', 'Instance'),
    startTime: { kind: 'datetime', label: { zh: '开始时间', en: 'From' }, required: true },
    endTime: { kind: 'datetime', label: { zh: '结束时间', en: 'To' }, required: true },
    leaveType: {
      kind: 'int',
      label: { zh: '请假类型', en: 'Type' },
      options: { dict: 'leave_type' },
      default: 1,
      range: [1, 7],
    },
    reason: { kind: 'string', label: { zh: '请假理由', en: 'Reason' }, max: 500, required: true },
    taskUser: { kind: 'id', label: { zh: '审批人', en: 'Approver' }, required: true },
    days: { kind: 'decimal', label: { zh: '天数', en: 'Days' }, precision: 8, scale: 2, form: 'readonly' },
    applyUser: idField('申请人', 'Applicant'),
    applyUserName: readonlyText('申请人', 'Applicant', 64),
    applyTime: time('申请时间', 'Applied'),
  },
});

/** The leave types of the leave form (system dictionary `leave_type`). */
export const LEAVE_TYPE_DICTIONARY = {
  code: 'leave_type',
  name: '请假类型',
  entries: [
    ['1', '事假', 'Personal'],
    ['2', '病假', 'Sick'],
    ['3', '年假', 'Annual'],
    ['4', '调休', 'Time off in lieu'],
    ['5', '婚假', 'Marriage'],
    ['6', '产假', 'Maternity'],
    ['7', '其他', 'Other'],
  ],
} as const;

/** The screens of 我的事务: every signed-in user's own work; the routes check who may do what per task. */
export const workStartScreen = defineScreen({
  code: 'work_start',
  title: { zh: '发起事务', en: 'Start a process' },
  menu: { group: 'work', sort: 1, icon: 'form', dictionaries: [LEAVE_TYPE_DICTIONARY] },
});
export const workClaimScreen = defineScreen({
  code: 'work_claim',
  title: { zh: '待签事务', en: 'To claim' },
  menu: { group: 'work', sort: 2, icon: 'inbox' },
});
export const workTodoScreen = defineScreen({
  code: 'work_todo',
  title: { zh: '待办事务', en: 'To do' },
  menu: { group: 'work', sort: 3, icon: 'schedule' },
});
export const workSendScreen = defineScreen({
  code: 'work_send',
  title: { zh: '已发事务', en: 'Started by me' },
  menu: { group: 'work', sort: 4, icon: 'notification' },
});
export const workDoneScreen = defineScreen({
  code: 'work_done',
  title: { zh: '办结事务', en: 'Done' },
  menu: { group: 'work', sort: 5, icon: 'reconciliation' },
});

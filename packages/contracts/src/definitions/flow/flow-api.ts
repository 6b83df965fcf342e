import type { BilingualText } from '../../api/messages';
import { parseDateTime } from '../../format/date-time';

/**
 * The workflow API beyond the generic lists (docs/workflow.md lists every call and reply).
 * Paths are under `/api`.
 */
/**
 * The prefixes under which the workflow's routes live (not routes themselves): the web app
 * invalidates every cached read under one of them as one.
 */
export const FlowRouteBases = {
  /** Every work list, claim and completion. */
  work: '/blade-flow/work',
  /** The process viewers and forms. */
  process: '/blade-flow/process',
  /** The leave process's own routes. */
  leave: '/blade-desk/process/leave',
} as const;

export const FlowPaths = {
  modelDeploy: '/blade-flow/model/deploy',
  managerChangeState: '/blade-flow/manager/change-state',
  managerDeleteDeployment: '/blade-flow/manager/delete-deployment',
  managerDeployUpload: '/blade-flow/manager/deploy-upload',
  followDelete: '/blade-flow/follow/delete-process-instance',
  workStartList: '/blade-flow/work/start-list',
  workClaimList: '/blade-flow/work/claim-list',
  workTodoList: '/blade-flow/work/todo-list',
  workSendList: '/blade-flow/work/send-list',
  workDoneList: '/blade-flow/work/done-list',
  workClaim: '/blade-flow/work/claim-task',
  workComplete: '/blade-flow/work/complete-task',
  workStart: '/blade-flow/work/start-process',
  /** Users of the caller's tenant (`[{id, account, name}]`) for the leave form's approver picker. */
  workUserSelect: '/blade-flow/work/user-select',
  /** The definition's XML for the viewers (流程管理's 流程图, the history beside a timeline). */
  resourceView: '/blade-flow/process/resource-view',
  /** A definition's start form, a task's form, an instance's start form filled in (docs/workflow.md, "Forms"). */
  startForm: '/blade-flow/process/start-form',
  taskForm: '/blade-flow/process/task-form',
  instanceForm: '/blade-flow/process/instance-form',
  historyFlowList: '/blade-flow/process/history-flow-list',
  leaveStart: '/blade-desk/process/leave/start-process',
  leaveDetail: '/blade-desk/process/leave/detail',
} as const;

/** The seeded leave process's key (every tenant has it; docs/workflow.md). */
export const LEAVE_PROCESS_KEY = 'leave';
/** The leave's business table, as tasks and instances name it. */
export const LEAVE_BUSINESS_TABLE = 'mes_process_leave';

/** A task row of the work lists (`claim-list`, `todo-list`, `done-list`). */
export interface FlowTaskRecord {
  taskId: string;
  taskName: string;
  taskDefinitionKey: string;
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  category: number | null;
  categoryName: string;
  assignee: string | null;
  assigneeName: string;
  candidateUsers: string;
  candidateGroups: string;
  businessTable: string;
  businessId: string;
  startUser: string | null;
  startUserName: string;
  formKey: string;
  createTime: string | null;
  claimTime: string | null;
  endTime: string | null;
  /** 1 open, 2 completed, 3 cancelled. */
  status: number;
  isPass: boolean | null;
  comment: string;
}

/** `complete-task` body (JSON). */
export interface FlowCompleteBody {
  taskId: string;
  /** The family sends `pass` (boolean) or `flag: 'ok'`; both are read. */
  pass?: boolean;
  flag?: string;
  comment?: string;
  /** Process variables the task sets (names the server set at start are refused). */
  variables?: Record<string, string | number | boolean | null>;
}

/** One step of `history-flow-list`. */
export interface FlowHistoryStep {
  historyActivityId: string;
  historyActivityName: string;
  historyActivityType: string;
  taskId: string | null;
  assignee: string | null;
  assigneeName: string;
  createTime: string | null;
  endTime: string | null;
  /** `1小时2分钟` style text and the raw milliseconds. */
  historyActivityDurationTime: string;
  durationMs: number | null;
  comment: string;
  isPass: boolean | null;
  /** The step is still open (a task waiting for someone). */
  current: boolean;
}

/** `leave/start-process` body. */
export interface LeaveStartBody {
  processDefinitionId?: string;
  startTime: string;
  endTime: string;
  leaveType?: number;
  reason: string;
  /** The approver's user id (`taskUser_<id>` as the family sends it is read too). */
  taskUser: string;
}

/**
 * What is wrong with a leave request, checked the same way by the form and by the server
 * (`leave/start-process`); undefined when nothing is. Times are `yyyy-MM-dd HH:mm:ss`.
 */
export function leaveProblem(input: {
  startTime?: string;
  endTime?: string;
  reason?: string;
  taskUser?: string;
}): BilingualText | undefined {
  const start = input.startTime ? parseDateTime(input.startTime) : undefined;
  const end = input.endTime ? parseDateTime(input.endTime) : undefined;
  if (!start) return { zh: '请选择开始时间', en: 'Choose the start' };
  if (!end) return { zh: '请选择结束时间', en: 'Choose the end' };
  if (end <= start) return { zh: '结束时间必须晚于开始时间', en: 'The end must be after the start' };
  const reason = (input.reason ?? '').trim();
  if (!reason) return { zh: '请填写请假理由', en: 'Give a reason' };
  if (reason.length > 500) return { zh: '请假理由不能超过 500 个字', en: 'The reason may have at most 500 characters' };
  if (!/^(taskUser_)?\d{1,19}$/.test(input.taskUser ?? '')) return { zh: '请选择审批人', en: 'Choose the approver' };
  return undefined;
}

/** Leave days as the server counts them: (end − start) in days, two decimals. */
export const leaveDays = (start: Date, end: Date): number =>
  Math.round(((end.getTime() - start.getTime()) / 86_400_000) * 100) / 100;

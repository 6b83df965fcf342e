/**
 * The workflow API beyond the generic lists (docs/workflow.md lists every call and reply).
 * Paths are under `/api`.
 */
export const FlowPaths = {
  modelDeploy: '/blade-flow/model/deploy',
  managerChangeState: '/blade-flow/manager/change-state',
  managerDeleteDeployment: '/blade-flow/manager/delete-deployment',
  managerDeployUpload: '/blade-flow/manager/deploy-upload',
  managerResource: '/blade-flow/manager/resource-view',
  followDelete: '/blade-flow/follow/delete-process-instance',
  workStartList: '/blade-flow/work/start-list',
  workClaimList: '/blade-flow/work/claim-list',
  workTodoList: '/blade-flow/work/todo-list',
  workSendList: '/blade-flow/work/send-list',
  workDoneList: '/blade-flow/work/done-list',
  workClaim: '/blade-flow/work/claim-task',
  workComplete: '/blade-flow/work/complete-task',
  workStart: '/blade-flow/work/start-process',
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

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateRoutes } from '../../api/server-state';
import { FlowPaths, FlowRouteBases, LEAVE_BUSINESS_TABLE, type FlowTaskRecord } from '@mes/contracts';

/** Every work list, claim and completion is under this route: one invalidation reloads them all. */
export const WORK_ROUTE = FlowRouteBases.work;
export const LEAVE_ROUTE = FlowRouteBases.leave;

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
}

/** A definition of the start list. */
export interface StartRow {
  id: string;
  key: string;
  name: string;
  version: number;
  category: number | null;
  categoryName: string;
  deploymentTime: string | null;
}

/** An instance of the send list. */
export interface SendRow {
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionKey?: string;
  processDefinitionName: string;
  businessTable?: string;
  businessId: string;
  startTime: string | null;
  flowStatus: number;
  taskName: string;
  assigneeName: string;
}

export interface LeaveView {
  id: string;
  startTime: string;
  endTime: string;
  leaveType: number;
  reason: string;
  taskUser: string;
  taskUserName: string;
  days: string;
  applyUser: string;
  applyUserName: string;
  applyTime: string;
  processDefinitionId: string;
  processInstanceId: string;
  processIsFinished: boolean;
  processStatus: number | null;
}

export interface UserChoice {
  id: string;
  account: string;
  name: string;
}

/** Where a definition is started: the leave has its built-in form, every other the generic one. */
export const startFormPath = (row: Pick<StartRow, 'id' | 'key'>): string =>
  row.key === 'leave' ? `/work/process/leave/form/${row.id}` : `/work/process/form/start/${row.id}`;

/** Where a task is handled: the leave's handle route for leave tasks, the generic task form otherwise. */
export const handlePath = (task: FlowTaskRecord): string =>
  task.businessTable === LEAVE_BUSINESS_TABLE
    ? `/work/process/leave/handle/${task.taskId}/${task.processInstanceId}/${task.businessId}`
    : `/work/process/form/handle/${task.taskId}/${task.processInstanceId}`;

export const detailPath = (row: { processInstanceId: string; businessId: string; businessTable?: string }) =>
  row.businessTable === LEAVE_BUSINESS_TABLE
    ? `/work/process/leave/detail/${row.processInstanceId}/${row.businessId}`
    : `/work/process/form/detail/${row.processInstanceId}`;

export { FlowPaths };

/**
 * A write of the work screens with its pending state (the buttons show it), failures toasted by
 * the HTTP client, and every work list and leave read reloaded after it.
 */
export function useWorkWrite<V, R>(write: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => {
      for (const route of [WORK_ROUTE, LEAVE_ROUTE, FlowRouteBases.process]) void invalidateRoutes(client, route);
    },
  });
}

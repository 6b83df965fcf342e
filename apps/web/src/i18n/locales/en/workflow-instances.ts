import type { workflowInstances as zh } from '../zh/workflow-instances';

export const workflowInstances: typeof zh = {
  tasks: 'Current tasks',
  unassigned: 'unclaimed',
  remove: 'Delete',
  removeTitle: 'Delete the process instance',
  reason: 'Reason',
  reasonRequired: 'Give the reason',
  ok: 'Delete',
  cancel: 'Cancel',
};

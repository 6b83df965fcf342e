import type { workflowDeployments as zh } from '../zh/workflow-deployments';

export const workflowDeployments: typeof zh = {
  diagram: 'Diagram',
  suspend: 'Suspend',
  activate: 'Activate',
  remove: 'Delete',
  upload: 'Deploy',
  uploadTitle: 'Upload and deploy',
  files: 'Process files (.bpmn / .bpmn20.xml)',
  filesRequired: 'Choose the process files',
  choose: 'Choose files',
  confirmSuspend: 'A suspended process starts nothing and its tasks cannot be completed. Suspend it?',
  confirmActivate: 'Activate this process?',
  confirmRemove: 'Delete this deployment and all its definitions?',
  tip: 'Confirm',
  ok: 'OK',
  cancel: 'Cancel',
  viewerFailed: 'The diagram cannot be shown',
};

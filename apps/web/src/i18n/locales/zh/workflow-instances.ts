/** Texts of the workflow instances screen. */
export const workflowInstances = {
  tasks: '当前任务',
  unassigned: '待签收',
  remove: '删除',
  removeTitle: '删除流程实例',
  reason: '删除原因',
  reasonRequired: '请填写删除原因',
  ok: '删除',
  cancel: '取消',
};

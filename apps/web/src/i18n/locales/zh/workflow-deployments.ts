/** Texts of the workflow deployments screen. */
export const workflowDeployments = {
  diagram: '流程图',
  suspend: '挂起',
  activate: '激活',
  remove: '删除',
  upload: '部署',
  uploadTitle: '上传部署',
  files: '流程文件 (.bpmn / .bpmn20.xml)',
  filesRequired: '请选择流程文件',
  choose: '选择文件',
  confirmSuspend: '挂起后该流程不能发起,其任务不能办理。确定挂起?',
  confirmActivate: '确定激活该流程?',
  confirmRemove: '删除该部署及其全部流程定义?',
  tip: '提示',
  ok: '确定',
  cancel: '取消',
  viewerFailed: '流程图无法显示',
};

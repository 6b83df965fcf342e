import type { FastifyRequest } from 'fastify';
import type { LocalText } from '@mes/contracts';

/** The workflow's answers in both languages; `say` picks the caller's (Accept-Language, Chinese first). */
export const FlowMessages = {
  invalidModel: (details: string): LocalText => ({
    zh: `流程模型校验失败: ${details}`,
    en: `The process model is invalid: ${details}`,
  }),
  definitionNotFound: { zh: '流程定义不存在或无权访问', en: 'No such process definition' },
  definitionSuspended: { zh: '流程定义已挂起,不能发起或办理', en: 'The process definition is suspended' },
  taskNotFound: { zh: '任务不存在或已办结', en: 'No such open task' },
  instanceNotFound: { zh: '流程实例不存在或已结束', en: 'No such running process instance' },
  notCandidate: { zh: '您不是该任务的候选人,不能签收', en: 'Only a candidate of the task may claim it' },
  alreadyClaimed: (name: string): LocalText => ({
    zh: `任务已被 ${name} 签收`,
    en: `The task was already claimed by ${name}`,
  }),
  notAssignee: { zh: '只有任务的办理人可以办理该任务', en: 'Only the assignee may complete the task' },
  claimFirst: { zh: '请先签收该任务', en: 'Claim the task first' },
  fixedVariable: (name: string): LocalText => ({
    zh: `流程变量 ${name} 由系统设置,不能修改`,
    en: `The process variable ${name} is set by the server and cannot be changed`,
  }),
  badVariables: {
    zh: '流程变量应为对象,值为文本、数字、布尔或空',
    en: 'variables must be an object of text, numbers, booleans or null',
  },
  runFailed: (detail: string): LocalText => ({ zh: `流程执行出错: ${detail}`, en: `The process failed: ${detail}` }),
  runningInstances: (n: number): LocalText => ({
    zh: `该部署还有 ${n} 个运行中的流程实例,请先删除它们`,
    en: `The deployment still has ${n} running instance(s); delete them first`,
  }),
  badState: { zh: '请求参数 state 不正确: 应为 active 或 suspend', en: 'state must be active or suspend' },
  noFiles: { zh: '请上传 .bpmn 或 .bpmn20.xml 文件', en: 'Upload .bpmn or .bpmn20.xml files' },
  badFileName: (name: string): LocalText => ({
    zh: `文件 ${name} 不是 .bpmn 或 .bpmn20.xml 文件`,
    en: `${name} is not a .bpmn or .bpmn20.xml file`,
  }),
  tenantsPlatformOnly: {
    zh: '只有平台管理员可以部署到其他租户',
    en: 'Only the platform administrator may deploy to other tenants',
  },
  unknownTenant: (id: string): LocalText => ({ zh: `租户 ${id} 不存在`, en: `No tenant ${id}` }),
  badUser: (what: string): LocalText => ({
    zh: `${what} 不是本租户的用户`,
    en: `${what} is not a user of this tenant`,
  }),
  leaveTimes: { zh: '结束时间必须晚于开始时间', en: 'The end must be after the start' },
  notLeaveProcess: { zh: '该流程不是请假流程', en: 'The process is not a leave process' },
  reasonRequired: { zh: '请输入删除原因', en: 'Give a reason' },
  claimed: { zh: '签收成功', en: 'Claimed' },
  completed: { zh: '办理成功', en: 'Completed' },
  started: { zh: '流程已发起', en: 'Process started' },
  deployed: { zh: '部署成功', en: 'Deployed' },
} as const;

export function say(request: FastifyRequest | undefined, text: LocalText): string {
  const lang = String(request?.headers['accept-language'] ?? '');
  return /^en\b/i.test(lang.trim()) ? text.en : text.zh;
}

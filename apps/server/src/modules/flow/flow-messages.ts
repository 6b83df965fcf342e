import type { FastifyRequest } from 'fastify';
import type { LocalText } from '@mes/contracts';

/** The workflow's answers in both languages; `say` picks the caller's (Accept-Language, Chinese first). */
export const FlowMessages = {
  invalidModel: (problems: readonly LocalText[]): LocalText => ({
    zh: `流程模型校验失败: ${problems.map((p) => p.zh).join('; ')}`,
    en: `The process model is invalid: ${problems.map((p) => p.en).join('; ')}`,
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
  runFailed: (detail: LocalText): LocalText => ({
    zh: `流程执行出错: ${detail.zh}`,
    en: `The process failed: ${detail.en}`,
  }),
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

/** Text that is the same in both languages (an engine's or a linter's own English words, a name). */
export const plain = (text: string): LocalText => ({ zh: text, en: text });

/** `where: text` in both languages. */
export const at = (where: string, text: LocalText): LocalText => ({
  zh: `${where}: ${text.zh}`,
  en: `${where}: ${text.en}`,
});

/** Faults of an expression (expression.ts). */
export const ExpressionMessages = {
  tooLong: (max: number): LocalText => ({ zh: `表达式过长 (${max})`, en: `The expression is too long (${max})` }),
  unterminated: (text: string): LocalText => ({ zh: `字符串未结束: ${text}`, en: `Unterminated string: ${text}` }),
  badCharacter: (c: string, text: string): LocalText => ({
    zh: `表达式中有无法识别的字符 "${c}": ${text}`,
    en: `Unknown character "${c}" in the expression: ${text}`,
  }),
  missing: (what: string, text: string): LocalText => ({
    zh: `表达式缺少 "${what}": ${text}`,
    en: `The expression lacks "${what}": ${text}`,
  }),
  nameAfterDot: (text: string): LocalText => ({
    zh: `表达式中 "." 之后应为名称: ${text}`,
    en: `A name must follow "." in the expression: ${text}`,
  }),
  incomplete: (text: string): LocalText => ({
    zh: `表达式不完整: ${text}`,
    en: `The expression is incomplete: ${text}`,
  }),
  trailing: (text: string): LocalText => ({
    zh: `表达式有多余内容: ${text}`,
    en: `The expression has text left over: ${text}`,
  }),
} as const;

/** Why a model is refused (bpmn-model.ts). */
export const ModelMessages = {
  rootElement: { zh: 'XML: 根元素应为 bpmn:definitions', en: 'XML: the root element must be bpmn:definitions' },
  executableCount: (n: number): LocalText => ({
    zh: `模型应包含且只包含一个可执行流程 (找到 ${n} 个)`,
    en: `The model must hold exactly one executable process (found ${n})`,
  }),
  processKey: (id: string): LocalText => ({
    zh: `流程标识 ${id} 应以字母开头,只含字母、数字、_ . -`,
    en: `The process id ${id} must start with a letter and hold only letters, digits, _ . -`,
  }),
  unsupported: (element: LocalText, id: string): LocalText => ({
    zh: `不支持的元素 ${element.zh}: ${id}`,
    en: `Unsupported element ${element.en}: ${id}`,
  }),
  noAssignee: (id: string): LocalText => ({
    zh: `用户任务 ${id} 没有办理人、候选人或候选组`,
    en: `The user task ${id} has no assignee, candidate users or candidate groups`,
  }),
  serviceKind: (id: string, kinds: string): LocalText => ({
    zh: `服务任务 ${id} 应声明 mes:service="${kinds}"`,
    en: `The service task ${id} must declare mes:service="${kinds}"`,
  }),
  serviceNeeds: (id: string, attr: string, what: LocalText): LocalText => ({
    zh: `服务任务 ${id} 应以 mes:${attr} 指定${what.zh}`,
    en: `The service task ${id} must give ${what.en} in mes:${attr}`,
  }),
  serviceEither: (id: string, a: string, b: string): LocalText => ({
    zh: `服务任务 ${id} 应以 mes:${a} 或 mes:${b} 指定接收人`,
    en: `The service task ${id} must name its recipient in mes:${a} or mes:${b}`,
  }),
  unknownResource: (id: string, code: string, allowed: string): LocalText => ({
    zh: `服务任务 ${id}: 不能修改资源 ${code} (可修改: ${allowed})`,
    en: `The service task ${id} cannot change the resource ${code} (allowed: ${allowed})`,
  }),
  recordResource: (id: string, code: string): LocalText => ({
    zh: `服务任务 ${id}: ${code} 是受监管的记录,记录只能以新版本更正,不能修改字段`,
    en: `The service task ${id}: ${code} holds regulated records, which are corrected by new versions, never edited`,
  }),
  unknownField: (id: string, code: string, field: string): LocalText => ({
    zh: `服务任务 ${id}: 资源 ${code} 没有可修改的字段 ${field}`,
    en: `The service task ${id}: the resource ${code} has no editable field ${field}`,
  }),
  badParams: (id: string): LocalText => ({
    zh: `服务任务 ${id} 的 mes:params 应为以逗号分隔的变量名或 参数=变量名`,
    en: `mes:params of the service task ${id} must be comma-separated variable names or param=variable`,
  }),
  callNeedsKey: (id: string): LocalText => ({
    zh: `调用活动 ${id} 应以 calledElement 指定被调用流程的标识`,
    en: `The call activity ${id} must name the process it calls in calledElement`,
  }),
  callsItself: (id: string, key: string): LocalText => ({
    zh: `调用活动 ${id} 不能调用本流程 (${key})`,
    en: `The call activity ${id} cannot call its own process (${key})`,
  }),
  scriptCondition: (id: string, language: string): LocalText => ({
    zh: `条件 ${id} 不能使用脚本语言 (${language})`,
    en: `The condition ${id} cannot use a script language (${language})`,
  }),
  badCycle: (id: string, text: string): LocalText => ({
    zh: `定时器 ${id} 的循环 ${text} 应为 ISO 8601 重复间隔,如 R3/PT10M 或 R/PT1H`,
    en: `The cycle ${text} of the timer ${id} must be an ISO 8601 repeating interval such as R3/PT10M or R/PT1H`,
  }),
} as const;

/** Faults while an instance runs (flow-service.ts) and what a service task's step records. */
export const RunMessages = {
  notUserId: (id: string, who: string): LocalText => ({
    zh: `${id}: 办理人 ${who} 不是用户编号`,
    en: `${id}: the assignee ${who} is not a user id`,
  }),
  nobody: (id: string): LocalText => ({
    zh: `${id}: 办理人和候选人均为空`,
    en: `${id}: the assignee and the candidates are all empty`,
  }),
  callTooDeep: (n: number): LocalText => ({
    zh: `调用活动嵌套超过 ${n} 层`,
    en: `Call activities are nested more than ${n} deep`,
  }),
  calledMissing: (id: string, key: string): LocalText => ({
    zh: `${id}: 被调用的流程 ${key} 不存在`,
    en: `${id}: the called process ${key} does not exist`,
  }),
  noticeTitle: { zh: '流程通知', en: 'Process notice' },
  serviceFailed: (reason: LocalText): LocalText => ({ zh: `失败: ${reason.zh}`, en: `Failed: ${reason.en}` }),
  smsSent: (phone: string): LocalText => ({ zh: `短信已发送至 ${phone}`, en: `SMS sent to ${phone}` }),
  smsQueued: { zh: '短信发送中', en: 'SMS being sent' },
  noSmsConfig: { zh: '租户没有启用的短信配置', en: 'The tenant has no enabled SMS configuration' },
  noPhone: (who: string): LocalText => ({
    zh: `用户 ${who} 没有手机号`,
    en: `The user ${who} has no phone number`,
  }),
  badPhone: (phone: string): LocalText => ({
    zh: `手机号 ${phone} 不正确`,
    en: `${phone} is not a mobile phone number`,
  }),
  noUser: (who: string): LocalText => ({
    zh: `${who} 不是本租户的用户`,
    en: `${who} is not a user of this tenant`,
  }),
  fieldSet: (code: string, id: string, field: string): LocalText => ({
    zh: `已设置 ${code} ${id} 的 ${field}`,
    en: `Set ${field} of ${code} ${id}`,
  }),
  badRecordId: (value: string): LocalText => ({
    zh: `记录编号 ${value} 不正确`,
    en: `${value} is not a record id`,
  }),
  noticeSent: { zh: '通知已发送', en: 'Notice sent' },
} as const;

export function say(request: FastifyRequest | undefined, text: LocalText): string {
  const lang = String(request?.headers['accept-language'] ?? '');
  return /^en\b/i.test(lang.trim()) ? text.en : text.zh;
}

import type { LocalText } from '@mes/contracts';

/**
 * What each bpmnlint rule of `bpmnlint:recommended` means, in words a modeler's author reads
 * (issue 30: the designer showed `end-event-required: Process is missing end event` in the
 * Chinese interface). bpmnlint's own messages are English only and some name the rule's
 * internals; a rule not listed here (a later bpmnlint's) keeps its own text behind its name.
 */
const LINT_RULE_TEXT: Record<string, LocalText> = {
  'ad-hoc-sub-process': {
    zh: '临时子流程 (ad-hoc) 内不能有开始或结束事件',
    en: 'An ad-hoc sub-process may not contain start or end events',
  },
  'conditional-event': { zh: '条件事件缺少条件', en: 'A conditional event needs a condition' },
  'conditional-flows': {
    zh: '从该元素出发的连线缺少条件(分支出去的每条连线都要有条件,或设为默认连线)',
    en: 'An outgoing flow has no condition (each flow leaving a fork needs a condition or must be the default flow)',
  },
  'end-event-required': { zh: '流程缺少结束事件', en: 'The process has no end event' },
  'event-based-gateway': {
    zh: '事件网关之后只能连接中间捕获事件或接收任务',
    en: 'An event-based gateway may only lead to intermediate catch events or receive tasks',
  },
  'event-sub-process-typed-start-event': {
    zh: '事件子流程的开始事件必须有事件类型(消息、定时等)',
    en: 'The start event of an event sub-process needs an event type (message, timer, …)',
  },
  'fake-join': {
    zh: '多条连线直接汇入一个任务:请先用网关汇合',
    en: 'Several flows enter a task directly: join them with a gateway first',
  },
  global: { zh: '全局元素重复或未被引用', en: 'A global element is duplicated or never used' },
  'label-required': { zh: '元素缺少名称', en: 'The element has no name' },
  'link-event': {
    zh: '链接事件须成对出现且名称一致(一个抛出、一个捕获)',
    en: 'Link events must come in named pairs (one throwing, one catching)',
  },
  'no-bpmndi': { zh: '元素缺少图形信息,无法绘制', en: 'The element has no diagram information and cannot be drawn' },
  'no-complex-gateway': { zh: '不支持复杂网关', en: 'Complex gateways are not supported' },
  'no-disconnected': { zh: '元素没有连到流程中(没有进出的连线)', en: 'The element is not connected to the process' },
  'no-duplicate-sequence-flows': {
    zh: '两个元素之间有重复的连线',
    en: 'Two elements are joined by more than one identical flow',
  },
  'no-gateway-join-fork': {
    zh: '一个网关不能同时汇合和分支:请拆成两个网关',
    en: 'A gateway may not both join and fork: use two gateways',
  },
  'no-implicit-end': {
    zh: '元素没有出去的连线,流程会在此隐式结束:请连到结束事件',
    en: 'The element has no outgoing flow, so the process ends there implicitly: connect it to an end event',
  },
  'no-implicit-split': {
    zh: '任务或事件直接分出多条连线:请用网关分支',
    en: 'A task or event forks into several flows directly: fork with a gateway',
  },
  'no-implicit-start': {
    zh: '元素没有进入的连线,流程会从此隐式开始:请从开始事件连过来',
    en: 'The element has no incoming flow, so the process starts there implicitly: connect it from a start event',
  },
  'no-inclusive-gateway': { zh: '不支持包容网关', en: 'Inclusive gateways are not supported' },
  'no-overlapping-elements': { zh: '图中元素相互重叠', en: 'Elements overlap in the diagram' },
  'single-blank-start-event': {
    zh: '流程只能有一个无类型的开始事件',
    en: 'A process may have only one blank start event',
  },
  'single-event-definition': {
    zh: '一个事件只能有一种事件类型',
    en: 'An event may have only one event definition',
  },
  'start-event-required': { zh: '流程缺少开始事件', en: 'The process has no start event' },
  'sub-process-blank-start-event': {
    zh: '子流程的开始事件不能有事件类型',
    en: 'The start event of a sub-process must be blank',
  },
  'superfluous-gateway': {
    zh: '网关只有一进一出,是多余的:请删去',
    en: 'The gateway has one flow in and one out and does nothing: remove it',
  },
  'superfluous-label': {
    zh: '无条件的连线不需要名称(名称只用于网关分支、条件连线和默认连线)',
    en: 'An unconditional sequence flow needs no label (labels belong on gateway forks, conditional and default flows)',
  },
  'superfluous-termination': {
    zh: '终止结束事件是多余的:此处普通结束事件即可',
    en: 'The terminate end event is superfluous here: a plain end event does the same',
  },
};

/** One bpmnlint report as the author reads it: the rule's meaning, then the element it is about. */
export function lintProblem(rule: string, message: string, elementId: string | undefined): LocalText {
  const where = elementId ? ` (${elementId})` : '';
  const text = LINT_RULE_TEXT[rule];
  if (text) return { zh: `${text.zh}${where}`, en: `${text.en}${where}` };
  return { zh: `${rule}: ${message}${where}`, en: `${rule}: ${message}${where}` };
}

/** The rules with a text of their own (a test checks bpmnlint's recommended set is covered). */
export const LINT_RULES_WITH_TEXT: readonly string[] = Object.keys(LINT_RULE_TEXT);

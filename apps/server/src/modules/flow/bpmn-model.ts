import { createRequire } from 'node:module';
import { Engine } from 'bpmn-engine';
import { checkTemplate } from './expression';
import { formsOfProcess } from './flow-forms';

// bpmn-moddle and bpmnlint ship no types; they are loaded through `require` with the little of
// their API the server uses typed here, so no ambient declaration has to follow this module into
// every project that compiles it.
interface BpmnModdleInstance {
  fromXML(xml: string): Promise<{ rootElement: unknown; warnings: unknown[] }>;
}
interface LinterInstance {
  lint(root: unknown): Promise<Record<string, unknown[]>>;
}
const load = createRequire(import.meta.url);
const BpmnModdle = load('bpmn-moddle') as new () => BpmnModdleInstance;
const { Linter } = load('bpmnlint') as {
  Linter: new (options: { config: unknown; resolver: unknown }) => LinterInstance;
};
const NodeResolver = load('bpmnlint/lib/resolver/node-resolver.js') as new () => unknown;

/** The service tasks a model may use (`mes:service` on a serviceTask; docs/workflow.md). */
export const SERVICE_KINDS = ['notice', 'set'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

export interface UserTaskMeta {
  name: string;
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
  formKey?: string;
}

export interface ServiceMeta {
  kind: ServiceKind;
  /** `notice`: title and content templates, roles (aliases) and depts (ids) it is addressed to. */
  title?: string;
  content?: string;
  roles?: string;
  depts?: string;
  /** `set`: the variable and the value template. */
  variable?: string;
  value?: string;
}

/** What the server reads from a model once, at deploy, and keeps beside the XML. */
export interface ProcessMeta {
  key: string;
  name: string;
  description: string;
  elements: Record<string, { type: string; name: string }>;
  userTasks: Record<string, UserTaskMeta>;
  services: Record<string, ServiceMeta>;
  /** Call activities: the key of the process each one starts (its newest active version). */
  calls?: Record<string, { calledElement: string }>;
}

export class ModelError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

interface ModdleElement {
  $type: string;
  id?: string;
  name?: string;
  isExecutable?: boolean;
  $attrs?: Record<string, string>;
  flowElements?: ModdleElement[];
  rootElements?: ModdleElement[];
  documentation?: { text?: string }[];
  conditionExpression?: { body?: string; language?: string };
  eventDefinitions?: ModdleElement[];
  timeDuration?: { body?: string };
  timeDate?: { body?: string };
  timeCycle?: { body?: string };
  calledElement?: string;
}

// Errors refuse a model, warnings do not. Labels are optional (gateways and events rarely have
// one) and diagram information too (a model written by hand or by a program has none; the
// viewer then cannot draw it, which is the author's choice).
const LINT_CONFIG = {
  extends: 'bpmnlint:recommended',
  rules: { 'label-required': 'off', 'no-bpmndi': 'warn' },
};

/** The attribute `name` in any of the namespaces the modelers write (flowable, camunda, activiti). */
function extensionAttr(el: ModdleElement, name: string): string | undefined {
  for (const [key, value] of Object.entries(el.$attrs ?? {})) {
    const local = key.includes(':') ? key.slice(key.indexOf(':') + 1) : key;
    if (local === name && key !== name) return String(value);
  }
  return undefined;
}

function mesAttr(el: ModdleElement, name: string): string | undefined {
  for (const [key, value] of Object.entries(el.$attrs ?? {})) if (key === `mes:${name}`) return String(value);
  return undefined;
}

const UNSUPPORTED: Record<string, string> = {
  'bpmn:ScriptTask': '脚本任务 (scriptTask)',
  'bpmn:BusinessRuleTask': '业务规则任务 (businessRuleTask)',
  'bpmn:SendTask': '发送任务 (sendTask)',
  'bpmn:ReceiveTask': '接收任务 (receiveTask)',
  'bpmn:ComplexGateway': '复杂网关 (complexGateway)',
};

function walk(elements: ModdleElement[] | undefined, visit: (el: ModdleElement) => void) {
  for (const el of elements ?? []) {
    visit(el);
    walk(el.flowElements, visit);
  }
}

/**
 * Parses, lints and reads a model. Throws `ModelError` with every problem found: the XML
 * parser's, bpmnlint's errors (rule, message, element), the engine's own parse, and the
 * server's rules (one executable process, expressions that parse, known service tasks).
 */
export async function readModel(xml: string): Promise<ProcessMeta> {
  const problems: string[] = [];
  const moddle = new BpmnModdle();
  let root: ModdleElement;
  try {
    const parsed = await moddle.fromXML(xml);
    root = parsed.rootElement as unknown as ModdleElement;
    for (const w of parsed.warnings) problems.push(`XML: ${(w as { message: string }).message}`);
  } catch (error) {
    throw new ModelError([`XML: ${(error as Error).message}`]);
  }
  if (root.$type !== 'bpmn:Definitions') throw new ModelError(['XML: 根元素应为 bpmn:definitions']);

  const linter = new Linter({ config: LINT_CONFIG, resolver: new NodeResolver() });
  const reports = (await linter.lint(root)) as Record<string, { id?: string; message: string; category: string }[]>;
  for (const [rule, list] of Object.entries(reports)) {
    for (const r of list) if (r.category === 'error') problems.push(`${rule}: ${r.message}${r.id ? ` (${r.id})` : ''}`);
  }

  const processes = (root.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process');
  const executable = processes.filter((p) => p.isExecutable !== false);
  if (executable.length !== 1) problems.push(`模型应包含且只包含一个可执行流程 (找到 ${executable.length} 个)`);
  const process = executable[0];
  const meta: ProcessMeta = {
    key: process?.id ?? '',
    name: process?.name ?? process?.id ?? '',
    description: process?.documentation?.[0]?.text ?? '',
    elements: {},
    userTasks: {},
    services: {},
    calls: {},
  };
  if (process && !/^[A-Za-z_][A-Za-z0-9_.-]{0,254}$/.test(process.id ?? ''))
    problems.push(`流程标识 ${process.id ?? ''} 应以字母开头,只含字母、数字、_ . -`);

  const expression = (where: string, text: string | undefined) => {
    if (!text) return;
    const fault = checkTemplate(text);
    if (fault) problems.push(`${where}: ${fault}`);
  };
  walk(process?.flowElements, (el) => {
    const id = el.id ?? '';
    meta.elements[id] = { type: el.$type, name: el.name ?? '' };
    const unsupported = UNSUPPORTED[el.$type];
    if (unsupported) problems.push(`不支持的元素 ${unsupported}: ${id}`);
    if (el.$type === 'bpmn:UserTask') {
      const task: UserTaskMeta = { name: el.name ?? id };
      for (const attr of ['assignee', 'candidateUsers', 'candidateGroups', 'formKey'] as const) {
        const value = extensionAttr(el, attr);
        if (value !== undefined && value.trim()) {
          task[attr] = value.trim();
          expression(`${id}.${attr}`, value);
        }
      }
      if (!task.assignee && !task.candidateUsers && !task.candidateGroups)
        problems.push(`用户任务 ${id} 没有办理人、候选人或候选组`);
      meta.userTasks[id] = task;
    }
    if (el.$type === 'bpmn:ServiceTask') {
      const kind = mesAttr(el, 'service');
      if (!kind || !(SERVICE_KINDS as readonly string[]).includes(kind)) {
        problems.push(`服务任务 ${id} 应声明 mes:service="${SERVICE_KINDS.join('|')}"`);
      } else {
        const service: ServiceMeta = { kind: kind as ServiceKind };
        for (const attr of ['title', 'content', 'roles', 'depts', 'variable', 'value'] as const) {
          const value = mesAttr(el, attr);
          if (value !== undefined) {
            service[attr] = value;
            expression(`${id}.${attr}`, value);
          }
        }
        if (kind === 'set' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(service.variable ?? ''))
          problems.push(`服务任务 ${id} 应以 mes:variable 指定变量名`);
        if (kind === 'notice' && !service.title) problems.push(`服务任务 ${id} 应以 mes:title 指定通知标题`);
        meta.services[id] = service;
      }
    }
    if (el.$type === 'bpmn:CallActivity') {
      const called = el.calledElement?.trim() ?? '';
      if (!called) problems.push(`调用活动 ${id} 应以 calledElement 指定被调用流程的标识`);
      else if (called === process?.id) problems.push(`调用活动 ${id} 不能调用本流程 (${called})`);
      expression(`${id}.calledElement`, called);
      (meta.calls ??= {})[id] = { calledElement: called };
    }
    if (el.conditionExpression) {
      if (el.conditionExpression.language)
        problems.push(`条件 ${id} 不能使用脚本语言 (${el.conditionExpression.language})`);
      expression(`${id}.condition`, el.conditionExpression.body);
    }
    for (const def of el.eventDefinitions ?? []) {
      expression(`${id}.timer`, def.timeDuration?.body ?? def.timeDate?.body ?? def.timeCycle?.body);
    }
  });

  problems.push(...formsOfProcess(process).problems);

  if (!problems.length) {
    // The engine's own reading of the same XML (references, flows it cannot follow).
    try {
      const engine = new Engine({ name: 'check', source: xml });
      await engine.getDefinitions();
    } catch (error) {
      problems.push(`engine: ${(error as Error).message}`);
    }
  }
  if (problems.length) throw new ModelError(problems.slice(0, 20));
  return meta;
}

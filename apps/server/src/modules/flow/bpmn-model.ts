import { createRequire } from 'node:module';
import { Engine } from 'bpmn-engine';
import { REGISTRY, resourceDefsOf, type LocalText, type ResourceDef } from '@mes/contracts';
import { checkTemplate } from './expression';
import { formsOfProcess } from './flow-forms';
import { lintProblem } from './lint-messages';
import { at, ModelMessages, plain } from './flow-messages';

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
export const SERVICE_KINDS = ['notice', 'set', 'sms', 'setField'] as const;
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
  /**
   * `notice` and `sms`: users it goes to, comma-separated: `starter`, `assignee` (whoever made
   * the move that reached the task) or user ids from expressions (`${approver}`).
   */
  users?: string;
  /** `set`: the variable; `set` and `setField`: the value template. */
  variable?: string;
  value?: string;
  /** `sms`: a phone number template, the SMS configuration's code, the template's parameters. */
  phone?: string;
  smsCode?: string;
  params?: string;
  /** `setField`: the resource code (SET_FIELD_RESOURCES), the record id template and the field. */
  resource?: string;
  recordId?: string;
  field?: string;
}

const SERVICE_ATTRS = [
  'title',
  'content',
  'roles',
  'depts',
  'users',
  'variable',
  'value',
  'phone',
  'smsCode',
  'params',
  'resource',
  'recordId',
  'field',
] as const;

/**
 * The business records a `setField` task may change (docs/workflow.md): master data whose state
 * a process moves on (a device taken out of service, a car off its line). Regulated records
 * (disinfection, verification) are never edited — they are corrected by new versions — and
 * system tables are an administrator's, so neither is here.
 */
export const SET_FIELD_RESOURCES = ['device_info', 'car', 'article', 'pack_material', 'oenmo', 'line'] as const;

const RESOURCE_DEFS = new Map<string, ResourceDef>(resourceDefsOf(REGISTRY).map((d) => [d.code, d]));

/** A field a `setField` task may write: one the add/edit form edits (not derived, secret or readonly). */
export function settableField(def: ResourceDef, name: string): boolean {
  const field = def.fields[name];
  if (!field || field.kind === 'secret' || field.derive) return false;
  return field.form === undefined || field.form === true;
}

/** `a,b=c`: SMS template parameters named after, or renamed from, process variables. */
export function smsParams(text: string | undefined): [string, string][] | undefined {
  const out: [string, string][] = [];
  for (const part of (text ?? '').split(',').map((p) => p.trim())) {
    if (!part) continue;
    const [name = '', variable = name] = part.split('=').map((p) => p.trim());
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(variable) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return undefined;
    out.push([name, variable]);
  }
  return out;
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
  constructor(readonly problems: LocalText[]) {
    super(problems.map((p) => p.zh).join('; '));
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

const UNSUPPORTED: Record<string, LocalText> = {
  'bpmn:ScriptTask': { zh: '脚本任务 (scriptTask)', en: 'script task (scriptTask)' },
  'bpmn:BusinessRuleTask': { zh: '业务规则任务 (businessRuleTask)', en: 'business rule task (businessRuleTask)' },
  'bpmn:SendTask': { zh: '发送任务 (sendTask)', en: 'send task (sendTask)' },
  'bpmn:ReceiveTask': { zh: '接收任务 (receiveTask)', en: 'receive task (receiveTask)' },
  'bpmn:ComplexGateway': { zh: '复杂网关 (complexGateway)', en: 'complex gateway (complexGateway)' },
};

const NEEDS: Record<string, LocalText> = {
  variable: { zh: '变量名', en: 'the variable name' },
  title: { zh: '通知标题', en: 'the notice title' },
  resource: { zh: '资源编号', en: 'the resource code' },
  recordId: { zh: '记录编号', en: 'the record id' },
  field: { zh: '字段', en: 'the field' },
};

/** The model-time checks of one service task of a known kind; pushes what is wrong. */
function checkService(id: string, service: ServiceMeta, problems: LocalText[]) {
  const needs = (attr: string) => problems.push(ModelMessages.serviceNeeds(id, attr, NEEDS[attr] ?? plain(attr)));
  switch (service.kind) {
    case 'set':
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(service.variable ?? '')) needs('variable');
      break;
    case 'notice':
      if (!service.title) needs('title');
      break;
    case 'sms':
      if (!service.phone?.trim() && !service.users?.trim())
        problems.push(ModelMessages.serviceEither(id, 'phone', 'users'));
      if (!smsParams(service.params)) problems.push(ModelMessages.badParams(id));
      break;
    case 'setField': {
      const code = service.resource?.trim() ?? '';
      if (!code) needs('resource');
      if (!service.recordId?.trim()) needs('recordId');
      if (!service.field?.trim()) needs('field');
      if (!code) break;
      const def = RESOURCE_DEFS.get(code);
      if (def?.records) problems.push(ModelMessages.recordResource(id, code));
      else if (!def || !(SET_FIELD_RESOURCES as readonly string[]).includes(code))
        problems.push(ModelMessages.unknownResource(id, code, SET_FIELD_RESOURCES.join(', ')));
      // A field from an expression is checked when the task runs.
      else if (service.field && !service.field.includes('${') && !settableField(def, service.field.trim()))
        problems.push(ModelMessages.unknownField(id, code, service.field.trim()));
      break;
    }
  }
}

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
  const problems: LocalText[] = [];
  const moddle = new BpmnModdle();
  let root: ModdleElement;
  try {
    const parsed = await moddle.fromXML(xml);
    root = parsed.rootElement as unknown as ModdleElement;
    for (const w of parsed.warnings) problems.push(plain(`XML: ${(w as { message: string }).message}`));
  } catch (error) {
    throw new ModelError([plain(`XML: ${(error as Error).message}`)]);
  }
  if (root.$type !== 'bpmn:Definitions') throw new ModelError([ModelMessages.rootElement]);

  const linter = new Linter({ config: LINT_CONFIG, resolver: new NodeResolver() });
  const reports = (await linter.lint(root)) as Record<string, { id?: string; message: string; category: string }[]>;
  for (const [rule, list] of Object.entries(reports)) {
    for (const r of list) if (r.category === 'error') problems.push(lintProblem(rule, r.message, r.id));
  }

  const processes = (root.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process');
  const executable = processes.filter((p) => p.isExecutable !== false);
  if (executable.length !== 1) problems.push(ModelMessages.executableCount(executable.length));
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
    problems.push(ModelMessages.processKey(process.id ?? ''));

  const expression = (where: string, text: string | undefined) => {
    if (!text) return;
    const fault = checkTemplate(text);
    if (fault) problems.push(at(where, fault));
  };
  walk(process?.flowElements, (el) => {
    const id = el.id ?? '';
    meta.elements[id] = { type: el.$type, name: el.name ?? '' };
    const unsupported = UNSUPPORTED[el.$type];
    if (unsupported) problems.push(ModelMessages.unsupported(unsupported, id));
    if (el.$type === 'bpmn:UserTask') {
      const task: UserTaskMeta = { name: el.name ?? id };
      for (const attr of ['assignee', 'candidateUsers', 'candidateGroups', 'formKey'] as const) {
        const value = extensionAttr(el, attr);
        if (value !== undefined && value.trim()) {
          task[attr] = value.trim();
          expression(`${id}.${attr}`, value);
        }
      }
      if (!task.assignee && !task.candidateUsers && !task.candidateGroups) problems.push(ModelMessages.noAssignee(id));
      meta.userTasks[id] = task;
    }
    if (el.$type === 'bpmn:ServiceTask') {
      const kind = mesAttr(el, 'service');
      if (!kind || !(SERVICE_KINDS as readonly string[]).includes(kind)) {
        problems.push(ModelMessages.serviceKind(id, SERVICE_KINDS.join('|')));
      } else {
        const service: ServiceMeta = { kind: kind as ServiceKind };
        for (const attr of SERVICE_ATTRS) {
          const value = mesAttr(el, attr);
          if (value !== undefined) {
            service[attr] = value;
            expression(`${id}.${attr}`, value);
          }
        }
        checkService(id, service, problems);
        meta.services[id] = service;
      }
    }
    if (el.$type === 'bpmn:CallActivity') {
      const called = el.calledElement?.trim() ?? '';
      if (!called) problems.push(ModelMessages.callNeedsKey(id));
      else if (called === process?.id) problems.push(ModelMessages.callsItself(id, called));
      expression(`${id}.calledElement`, called);
      (meta.calls ??= {})[id] = { calledElement: called };
    }
    if (el.conditionExpression) {
      if (el.conditionExpression.language)
        problems.push(ModelMessages.scriptCondition(id, el.conditionExpression.language));
      expression(`${id}.condition`, el.conditionExpression.body);
    }
    for (const def of el.eventDefinitions ?? []) {
      expression(`${id}.timer`, def.timeDuration?.body ?? def.timeDate?.body ?? def.timeCycle?.body);
      const cycle = def.timeCycle?.body?.trim();
      // bpmn-engine reads ISO 8601 only (no cron): R3/PT10M, R/PT1H, R2/2026-01-01T08:00:00Z/P1D.
      if (cycle && !cycle.includes('${') && !/^R\d*\/(P|\d{4}-)/.test(cycle))
        problems.push(ModelMessages.badCycle(id, cycle));
    }
  });

  problems.push(...formsOfProcess(process).problems);

  if (!problems.length) {
    // The engine's own reading of the same XML (references, flows it cannot follow).
    try {
      const engine = new Engine({ name: 'check', source: xml });
      await engine.getDefinitions();
    } catch (error) {
      problems.push(plain(`engine: ${(error as Error).message}`));
    }
  }
  if (problems.length) throw new ModelError(problems.slice(0, 20));
  return meta;
}

import { createRequire } from 'node:module';
import {
  FORM_CONSTRAINTS,
  FORM_FIELD_TYPES,
  FORM_TEXT_MAX,
  type FlowForm,
  type FlowFormField,
  type FormFieldType,
  type FormValue,
  type LocalText,
} from '@mes/contracts';

/**
 * The forms a model declares (docs/workflow.md, "Forms"): `formKey` and Camunda's generated-form
 * fields on the start event and on each user task. bpmn-moddle without the Camunda package reads
 * `camunda:formData` as a generic element (`$type` with the document's prefix, attributes as
 * properties, children in `$children`), so any prefix bound to the namespace works, and the
 * flowable / activiti spellings of `formKey` too.
 */
interface Generic {
  $type: string;
  $children?: Generic[];
  $attrs?: Record<string, string>;
  [attr: string]: unknown;
}
interface FormElement {
  $type: string;
  id?: string;
  $attrs?: Record<string, string>;
  extensionElements?: { values?: Generic[] };
  flowElements?: FormElement[];
}

export interface ProcessForms {
  start: FlowForm;
  tasks: Record<string, FlowForm>;
}

const local = (type: string) => type.slice(type.indexOf(':') + 1);
const childrenNamed = (el: Generic | undefined, name: string) =>
  (el?.$children ?? []).filter((c) => local(c.$type) === name);
const attr = (el: Generic, name: string): string | undefined => {
  const v = el[name];
  return typeof v === 'string' ? v : undefined;
};
const FIELD_ID = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Names the server sets on every instance: a form may not declare them. */
const RESERVED = new Set(['initiator', 'applyUser', 'startUser', 'businessId', 'pass']);

function formKeyOf(el: FormElement): string {
  for (const [key, value] of Object.entries(el.$attrs ?? {}))
    if (key.endsWith(':formKey') && value.trim()) return value.trim();
  return '';
}

function fieldOf(where: string, raw: Generic, problems: LocalText[]): FlowFormField | undefined {
  const id = attr(raw, 'id') ?? '';
  const at = `${where}.${id || '?'}`;
  if (!FIELD_ID.test(id)) {
    problems.push({
      zh: `${where}: 表单字段标识 "${id}" 应以字母开头,只含字母、数字、_`,
      en: `${where}: form field id "${id}" must start with a letter and hold only letters, digits and _`,
    });
    return undefined;
  }
  if (RESERVED.has(id))
    problems.push({
      zh: `${at}: 表单字段不能使用系统变量名 ${id}`,
      en: `${at}: a form field may not use the system variable ${id}`,
    });
  const type = (attr(raw, 'type') ?? 'string') as FormFieldType;
  if (!(FORM_FIELD_TYPES as readonly string[]).includes(type))
    problems.push({
      zh: `${at}: 不支持的字段类型 ${type} (支持 ${FORM_FIELD_TYPES.join(', ')})`,
      en: `${at}: field type ${type} is not supported (${FORM_FIELD_TYPES.join(', ')})`,
    });
  const field: FlowFormField = {
    id,
    label: (attr(raw, 'label') ?? '').trim() || id,
    type,
    required: false,
    readonly: false,
    values: childrenNamed(raw, 'value').map((v) => ({
      id: attr(v, 'id') ?? '',
      name: (attr(v, 'name') ?? '').trim() || (attr(v, 'id') ?? ''),
    })),
  };
  const defaultValue = attr(raw, 'defaultValue');
  if (defaultValue !== undefined && !defaultValue.includes('${')) field.defaultValue = defaultValue;
  if (type === 'enum' && (!field.values.length || field.values.some((v) => !v.id)))
    problems.push({
      zh: `${at}: 枚举字段应列出取值 (camunda:value 带 id)`,
      en: `${at}: an enum field lists its values (camunda:value with an id)`,
    });
  for (const validation of childrenNamed(raw, 'validation')) {
    for (const c of childrenNamed(validation, 'constraint')) {
      const name = attr(c, 'name') ?? '';
      const config = attr(c, 'config');
      if (!(FORM_CONSTRAINTS as readonly string[]).includes(name)) {
        problems.push({
          zh: `${at}: 不支持的校验 ${name} (支持 ${FORM_CONSTRAINTS.join(', ')})`,
          en: `${at}: constraint ${name} is not supported (${FORM_CONSTRAINTS.join(', ')})`,
        });
        continue;
      }
      if (name === 'required') field.required = true;
      else if (name === 'readonly') field.readonly = true;
      else {
        const n = Number(config);
        if (
          config === undefined ||
          !Number.isSafeInteger(n) ||
          ((name === 'minlength' || name === 'maxlength') && n < 0)
        ) {
          problems.push({
            zh: `${at}: 校验 ${name} 应以 config 给出整数`,
            en: `${at}: constraint ${name} takes a whole number as its config`,
          });
          continue;
        }
        if (name === 'maxlength' && n > FORM_TEXT_MAX)
          problems.push({
            zh: `${at}: maxlength 不能超过 ${FORM_TEXT_MAX}`,
            en: `${at}: maxlength may not exceed ${FORM_TEXT_MAX}`,
          });
        field[name as 'minlength' | 'maxlength' | 'min' | 'max'] = n;
      }
    }
  }
  return field;
}

function formOf(el: FormElement, problems: LocalText[]): FlowForm {
  const where = el.id ?? '';
  const fields: FlowFormField[] = [];
  const seen = new Set<string>();
  for (const data of (el.extensionElements?.values ?? []).filter((v) => local(v.$type) === 'formData')) {
    for (const raw of childrenNamed(data, 'formField')) {
      const field = fieldOf(where, raw, problems);
      if (!field) continue;
      if (seen.has(field.id))
        problems.push({
          zh: `${where}: 表单字段 ${field.id} 重复`,
          en: `${where}: form field ${field.id} is declared twice`,
        });
      seen.add(field.id);
      fields.push(field);
    }
  }
  return { formKey: formKeyOf(el), fields };
}

/**
 * The forms of a process element as bpmn-moddle read it, and the problems that refuse the model
 * at save (a bad field id or type, an enum without values, an unknown constraint).
 */
export function formsOfProcess(process: unknown): ProcessForms & { problems: LocalText[] } {
  const problems: LocalText[] = [];
  const out: ProcessForms = { start: { formKey: '', fields: [] }, tasks: {} };
  const visit = (elements: FormElement[] | undefined, top: boolean) => {
    for (const el of elements ?? []) {
      // The process's own start event: one inside a sub-process starts nothing a caller fills in.
      if (el.$type === 'bpmn:StartEvent' && top && !out.start.fields.length && !out.start.formKey)
        out.start = formOf(el, problems);
      if (el.$type === 'bpmn:UserTask') out.tasks[el.id ?? ''] = formOf(el, problems);
      visit(el.flowElements, false);
    }
  };
  visit((process as FormElement | undefined)?.flowElements, true);
  return { ...out, problems };
}

interface BpmnModdleInstance {
  fromXML(xml: string): Promise<{ rootElement: { rootElements?: FormElement[] } }>;
}
const BpmnModdle = createRequire(import.meta.url)('bpmn-moddle') as new () => BpmnModdleInstance;

/** Definitions never change once deployed: their forms are read once per process (a bounded cache). */
const cache = new Map<string, ProcessForms>();
const CACHE_MAX = 500;

/** The forms of a deployed definition (its XML passed the model's checks at deploy). */
export async function definitionForms(def: { id: string; xml: string }): Promise<ProcessForms> {
  const hit = cache.get(def.id);
  if (hit) return hit;
  const parsed = await new BpmnModdle().fromXML(def.xml);
  const process = (parsed.rootElement.rootElements ?? []).find(
    (e) => e.$type === 'bpmn:Process' && (e as { isExecutable?: boolean }).isExecutable !== false,
  );
  const { start, tasks } = formsOfProcess(process);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(def.id, { start, tasks });
  return { start, tasks };
}

/**
 * The process variables an instance holds, as the engine saved them: the process's environment
 * (the start's variables and what later moves wrote there). Only the form fields' names are
 * taken, and only scalars, so nothing of the engine's own bookkeeping leaves the server.
 */
export function formValues(state: unknown, fields: readonly FlowFormField[]): Record<string, FormValue> {
  const s = state as {
    definitions?: { execution?: { processes?: { environment?: { variables?: Record<string, unknown> } }[] } }[];
  } | null;
  const variables = s?.definitions?.[0]?.execution?.processes?.[0]?.environment?.variables ?? {};
  const out: Record<string, FormValue> = {};
  for (const f of fields) {
    const v = variables[f.id];
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[f.id] = v;
  }
  return out;
}

import type { BilingualText } from '../../api/messages';
import { parseDateTime } from '../../format/date-time';
import type { FlowHistoryStep } from './flow-api';

/**
 * Forms a model declares (docs/workflow.md, "Forms"): a start event or a user task carries
 * Camunda's generated-form fields (`camunda:formData` / `camunda:formField`), or a `formKey`
 * naming a form built into the console (the leave's). The server reads the fields from the
 * deployed definition and checks what is sent with {@link formValuesProblem}; the web form runs
 * the same check before sending, so both refuse with the same words.
 */
export const FORM_FIELD_TYPES = ['string', 'long', 'boolean', 'date', 'enum'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** The validation constraints a field may carry (`camunda:constraint name=...`); others are refused at save. */
export const FORM_CONSTRAINTS = ['required', 'readonly', 'minlength', 'maxlength', 'min', 'max'] as const;

/** Longest text a string field takes (the server's limit for any process variable). */
export const FORM_TEXT_MAX = 2000;

export interface FlowFormField {
  /** The process variable the value becomes. */
  id: string;
  /** As the model's author wrote it (model content: not translated). */
  label: string;
  type: FormFieldType;
  required: boolean;
  /** Shown, never taken from the caller. */
  readonly: boolean;
  /** `enum`: the choices, `id` is the value stored. */
  values: { id: string; name: string }[];
  defaultValue?: string;
  minlength?: number;
  maxlength?: number;
  min?: number;
  max?: number;
}

/** A start event's or a user task's form: a built-in form's key, or fields, or neither. */
export interface FlowForm {
  formKey: string;
  fields: FlowFormField[];
}

export type FormValue = string | number | boolean | null;

/** `GET /blade-flow/process/start-form?processDefinitionId=`. */
export interface FlowStartForm extends FlowForm {
  processDefinitionId: string;
  key: string;
  name: string;
  version: number;
}

/** `GET /blade-flow/process/task-form?taskId=`: the task's form, with the start form's values read-only. */
export interface FlowTaskForm extends FlowForm {
  taskId: string;
  taskName: string;
  taskDefinitionKey: string;
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionName: string;
  startUserName: string;
  /** The task is open and the caller holds it: they may complete it. */
  open: boolean;
  /** The instance's current values of the task's fields (a form shown again starts from them). */
  values: Record<string, FormValue>;
  start: FlowForm & { values: Record<string, FormValue> };
  flow: FlowHistoryStep[];
}

/** `GET /blade-flow/process/instance-form?processInstanceId=`: an instance's start form filled in, and its history. */
export interface FlowInstanceForm {
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionName: string;
  startUserName: string;
  startTime: string | null;
  /** 1 running, 2 finished, 3 deleted. */
  flowStatus: number;
  start: FlowForm & { values: Record<string, FormValue> };
  flow: FlowHistoryStep[];
}

const name = (field: FlowFormField): BilingualText => ({
  zh: field.label && field.label !== field.id ? `${field.label} (${field.id})` : field.id,
  en: field.label && field.label !== field.id ? `${field.id} (${field.label})` : field.id,
});
const refusal = (field: FlowFormField, zh: (n: string) => string, en: (n: string) => string): BilingualText => {
  const n = name(field);
  return { zh: zh(n.zh), en: en(n.en) };
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One field's value as the process keeps it, or why it is refused. */
function fieldValue(
  field: FlowFormField,
  raw: unknown,
  needed: boolean,
): { value: FormValue | undefined } | { problem: BilingualText } {
  const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
  if (empty) {
    if (needed && field.required && field.type !== 'boolean')
      return {
        problem: refusal(
          field,
          (n) => `请填写 ${n}`,
          (n) => `${n} is required`,
        ),
      };
    // A required yes / no is answered by the box itself: unticked is "no".
    return { value: field.type === 'boolean' ? false : raw === undefined ? undefined : null };
  }
  switch (field.type) {
    case 'string': {
      if (typeof raw !== 'string' && typeof raw !== 'number')
        return {
          problem: refusal(
            field,
            (n) => `${n} 应为文本`,
            (n) => `${n} must be text`,
          ),
        };
      const text = String(raw).trim();
      const max = Math.min(field.maxlength ?? FORM_TEXT_MAX, FORM_TEXT_MAX);
      if (text.length > max)
        return {
          problem: refusal(
            field,
            (n) => `${n} 最多 ${max} 个字符`,
            (n) => `${n} may have at most ${max} characters`,
          ),
        };
      if (field.minlength !== undefined && text.length < field.minlength) {
        const min = field.minlength;
        return {
          problem: refusal(
            field,
            (n) => `${n} 至少 ${min} 个字符`,
            (n) => `${n} needs at least ${min} characters`,
          ),
        };
      }
      return { value: text };
    }
    case 'long': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n))
        return {
          problem: refusal(
            field,
            (f) => `${f} 应为整数`,
            (f) => `${f} must be a whole number`,
          ),
        };
      if (field.min !== undefined && n < field.min) {
        const min = field.min;
        return {
          problem: refusal(
            field,
            (f) => `${f} 不能小于 ${min}`,
            (f) => `${f} must be at least ${min}`,
          ),
        };
      }
      if (field.max !== undefined && n > field.max) {
        const max = field.max;
        return {
          problem: refusal(
            field,
            (f) => `${f} 不能大于 ${max}`,
            (f) => `${f} must be at most ${max}`,
          ),
        };
      }
      return { value: n };
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
      return {
        problem: refusal(
          field,
          (n) => `${n} 应为是或否`,
          (n) => `${n} must be true or false`,
        ),
      };
    case 'date':
      if (typeof raw !== 'string' || !DATE.test(raw.trim()) || !parseDateTime(raw.trim()))
        return {
          problem: refusal(
            field,
            (n) => `${n} 应为日期 yyyy-MM-dd`,
            (n) => `${n} must be a date (yyyy-MM-dd)`,
          ),
        };
      return { value: raw.trim() };
    case 'enum': {
      const chosen = field.values.find((v) => v.id === String(raw));
      if (typeof raw === 'object' || !chosen) {
        const allowed = field.values.map((v) => v.id).join(', ');
        return {
          problem: refusal(
            field,
            (n) => `${n} 应为 ${allowed} 之一`,
            (n) => `${n} must be one of ${allowed}`,
          ),
        };
      }
      return { value: chosen.id };
    }
  }
}

/**
 * Checks what a caller sends for a form and gives the values the process keeps (typed: a `long`
 * is a number, a `boolean` a boolean, a `date` `yyyy-MM-dd`), or the first problem naming its
 * field. Fields the form does not declare, and read-only ones, are refused. `needed` false (a
 * rejected task) lets required fields stay empty.
 */
export function formValuesProblem(
  fields: readonly FlowFormField[],
  input: Record<string, unknown>,
  needed = true,
): { values: Record<string, FormValue> } | { problem: BilingualText } {
  const byId = new Map(fields.map((f) => [f.id, f]));
  for (const key of Object.keys(input)) {
    const field = byId.get(key);
    if (!field) return { problem: { zh: `表单没有字段 ${key}`, en: `The form has no field ${key}` } };
    if (field.readonly && input[key] !== undefined)
      return {
        problem: refusal(
          field,
          (n) => `${n} 只读,不能填写`,
          (n) => `${n} is read-only`,
        ),
      };
  }
  const values: Record<string, FormValue> = {};
  for (const field of fields) {
    if (field.readonly) continue;
    const out = fieldValue(field, input[field.id], needed);
    if ('problem' in out) return out;
    if (out.value !== undefined) values[field.id] = out.value;
  }
  return { values };
}

/** The built-in form a key names: the leave's start and task forms. */
export const BUILT_IN_FORM_KEYS = ['leave', 'leave-handle', 'leave-adjust'] as const;

import { parseDateTime } from '../format/date-time';
import { controlOf, isSubmittable, type FieldDef, type LocalText, type ResourceDef } from './define';

export type Lang = keyof LocalText;

/** Spec section 5: null, '', [] and {} are empty; booleans and numbers are not. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

const choosing = (field: FieldDef) =>
  ['select', 'radio', 'tree-select', 'multi-select', 'multi-tree-select', 'datetime'].includes(controlOf(field));

export function requiredMessage(field: FieldDef, lang: Lang): string {
  if (field.requiredMessage) return field.requiredMessage[lang];
  if (lang === 'zh') return `${choosing(field) ? '请选择' : '请输入'}${field.label.zh}`;
  return `${choosing(field) ? 'Please select' : 'Please enter'} ${field.label.en.toLowerCase()}`;
}

const ID = /^\d{1,19}$/;

/**
 * Checks one submitted value against its field's rules. Returns the message to show, or
 * undefined when the value is acceptable. The web form runs it on blur, the server on submit.
 */
export function checkField(field: FieldDef, value: unknown, lang: Lang): string | undefined {
  if (isEmptyValue(value)) return field.required ? requiredMessage(field, lang) : undefined;
  const label = field.label[lang];
  const text = Array.isArray(value) ? value.join(',') : String(value);
  switch (field.kind) {
    case 'int':
    case 'decimal': {
      if (field.options && 'items' in field.options && !field.options.items.some((i) => String(i.value) === text))
        return lang === 'zh' ? `${label}的取值无效` : `${label} has an invalid value`;
      const n = Number(text);
      if (!Number.isFinite(n) || (field.kind === 'int' && !Number.isInteger(n)))
        return lang === 'zh' ? `${label}应为${field.kind === 'int' ? '整数' : '数字'}` : `${label} must be a number`;
      if (field.range && (n < field.range[0] || n > field.range[1]))
        return lang === 'zh'
          ? `${label}应在 ${field.range[0]} 到 ${field.range[1]} 之间`
          : `${label} must be between ${field.range[0]} and ${field.range[1]}`;
      return undefined;
    }
    case 'id':
      return ID.test(text) ? undefined : lang === 'zh' ? `${label}无效` : `${label} is invalid`;
    case 'ids':
      return text.split(',').every((s) => ID.test(s.trim()))
        ? undefined
        : lang === 'zh'
          ? `${label}无效`
          : `${label} is invalid`;
    case 'datetime':
      return parseDateTime(text)
        ? undefined
        : lang === 'zh'
          ? `${label}的格式应为 yyyy-MM-dd HH:mm:ss`
          : `${label} must look like yyyy-MM-dd HH:mm:ss`;
    default:
      if (typeof value === 'object') return lang === 'zh' ? `${label}应为文本` : `${label} must be text`;
      if (field.options && 'items' in field.options && !field.options.items.some((i) => String(i.value) === text))
        return lang === 'zh' ? `${label}的取值无效` : `${label} has an invalid value`;
      if (field.max !== undefined && text.length > field.max)
        return lang === 'zh' ? `${label}最长 ${field.max} 个字符` : `${label} is at most ${field.max} characters`;
      if (field.pattern && !new RegExp(field.pattern.regex).test(text)) return field.pattern.message[lang];
      return undefined;
  }
}

/** A submitted value in its stored form; `undefined` leaves the column as it is. */
export type StoredValue = string | number | Date | null | undefined;

export interface SubmitCheck {
  /** Normalised values of the submittable fields present in the body. */
  values: Record<string, StoredValue>;
  /** The first message per failing field. */
  errors: Record<string, string>;
}

/**
 * Validates a submit body: only fields the form may change are read (no mass assignment of
 * tenant, audit or undeclared fields). Adding requires every required field; updating checks
 * only the fields sent.
 */
export function validateSubmit(def: ResourceDef, body: Record<string, unknown>, adding: boolean, lang: Lang = 'zh') {
  const result: SubmitCheck = { values: {}, errors: {} };
  for (const [name, field] of Object.entries(def.fields)) {
    if (!isSubmittable(field, adding)) continue;
    const present = Object.prototype.hasOwnProperty.call(body, name);
    const raw = body[name];
    if (!present && !adding) continue;
    if (!present && field.default !== undefined) continue;
    // A secret left empty on update keeps the stored value.
    if (field.kind === 'secret' && !adding && isEmptyValue(raw)) continue;
    const message = checkField(field, raw, lang);
    if (message) {
      result.errors[name] = message;
      continue;
    }
    result.values[name] = normalise(field, raw);
  }
  return result;
}

function normalise(field: FieldDef, raw: unknown): StoredValue {
  if (isEmptyValue(raw)) {
    if (field.kind === 'int' || field.kind === 'decimal' || field.kind === 'datetime' || field.kind === 'id')
      return field.nullable ? null : field.kind === 'id' ? '0' : field.default !== undefined ? field.default : null;
    return '';
  }
  const text = Array.isArray(raw) ? raw.join(',') : String(raw).trim();
  switch (field.kind) {
    case 'int':
    case 'decimal':
      return Number(text);
    case 'datetime':
      return parseDateTime(text) as Date;
    case 'ids':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .join(',');
    default:
      return field.kind === 'text' || field.kind === 'secret' ? String(raw) : text;
  }
}

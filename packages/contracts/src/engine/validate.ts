import { parseDateTime } from '../format/date-time';
import { INT4_MAX, INT4_MIN, isIdText } from '../query/value-ranges';
import { parseDay } from './calendar-day';
import { childCollectionsOf, childRowMessage, DEFAULT_MAX_CHILD_ROWS } from './children';
import { compareDecimal, readDecimal } from './decimal';
import {
  DEFAULT_JSON_MAX,
  findJsonProblem,
  jsonLength,
  jsonValueOf,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  type JsonValue,
} from './json-schema';
import {
  controlOf,
  decimalShapeOf,
  isSubmittable,
  type FieldCondition,
  type FieldDef,
  type LocalText,
  type ResourceDef,
} from './define';

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
  ['select', 'radio', 'tree-select', 'multi-select', 'multi-tree-select', 'datetime', 'date', 'switch'].includes(
    controlOf(field),
  );

export function requiredMessage(field: FieldDef, lang: Lang): string {
  if (field.requiredMessage) return field.requiredMessage[lang];
  if (lang === 'zh') return `${choosing(field) ? '请选择' : '请输入'}${field.label.zh}`;
  return `${choosing(field) ? 'Please select' : 'Please enter'} ${field.label.en.toLowerCase()}`;
}

/**
 * A definition's row: its values by field name, as the server's engine reads and writes it and
 * the routes send it (`ListedRow` once it has its id).
 */
export type Row = Record<string, unknown>;
/** A row as the list and detail routes send it. */
export type ListedRow = Row & { id: string };

/** A row's values by field name, as the conditions of `requiredWhen` and `visibleWhen` read them. */
export type RowValues = Readonly<Row>;

export function conditionHolds(condition: FieldCondition, row: RowValues): boolean {
  const value = row[condition.field];
  if (isEmptyValue(value) || typeof value === 'object') return false;
  const text = String(value).trim();
  return condition.in.some((v) => String(v) === text);
}

/** Whether the field belongs in the form (and its submitted value counts) for this row. */
export const isFieldVisible = (field: FieldDef, row: RowValues) =>
  !field.visibleWhen || conditionHolds(field.visibleWhen, row);

/** Whether the field needs a value for this row: always, or while its `requiredWhen` holds. */
export const isFieldRequired = (field: FieldDef, row: RowValues) =>
  field.required === true || (field.requiredWhen !== undefined && conditionHolds(field.requiredWhen, row));

/** varchar columns without a declared `max` are varchar(255) (see the server's resource tables). */
const DEFAULT_MAX = 255;

/** The longest value a text-like field's column holds; undefined for unbounded `text` columns. */
export function maxLengthOf(field: FieldDef): number | undefined {
  if (field.max !== undefined) return field.max;
  if (field.kind === 'string' || field.kind === 'ids' || (field.kind === 'secret' && !field.sealed)) return DEFAULT_MAX;
  return undefined;
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Characters as PostgreSQL counts them (code points, not UTF-16 units). */
const lengthOf = (text: string) => [...text].length;

/** An id given as text or, below 2^53 where JSON numbers stay exact, as a number. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return isIdText(text) ? text : undefined;
}

function idsOf(value: unknown): string[] | undefined {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!parts) return undefined;
  const ids = parts.map(idOf);
  return ids.every((id): id is string => id !== undefined) ? ids : undefined;
}

function numberOf(field: FieldDef, value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!(field.kind === 'int' ? INTEGER_TEXT : DECIMAL_TEXT).test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** A boolean as JSON carries it, or as the text a select or a query string holds. */
function booleanOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

const zh = (lang: Lang, zhText: string, enText: string) => (lang === 'zh' ? zhText : enText);

function checkDecimal(field: FieldDef, value: unknown, label: string, lang: Lang): string | undefined {
  const shape = decimalShapeOf(field);
  const read = readDecimal(value, shape);
  if (!read.ok) {
    if (read.problem === 'tooManyDecimals')
      return zh(
        lang,
        `${label}最多 ${shape.scale} 位小数`,
        `${label} has at most ${shape.scale} digit${shape.scale === 1 ? '' : 's'} after the point`,
      );
    if (read.problem === 'tooManyDigits') {
      const digits = shape.precision - shape.scale;
      return zh(
        lang,
        `${label}的整数部分最多 ${digits} 位`,
        `${label} has at most ${digits} digit${digits === 1 ? '' : 's'} before the point`,
      );
    }
    return zh(lang, `${label}应为数字`, `${label} must be a number`);
  }
  if (
    field.options &&
    'items' in field.options &&
    !field.options.items.some((i) => compareDecimal(String(i.value), read.text) === 0)
  )
    return zh(lang, `${label}的取值无效`, `${label} has an invalid value`);
  const range = field.range;
  if (range && (compareDecimal(read.text, String(range[0])) < 0 || compareDecimal(read.text, String(range[1])) > 0))
    return zh(
      lang,
      `${label}应在 ${range[0]} 到 ${range[1]} 之间`,
      `${label} must be between ${range[0]} and ${range[1]}`,
    );
  return undefined;
}

function checkJson(field: FieldDef, value: unknown, label: string, lang: Lang): string | undefined {
  const schema = field.schema ?? { type: 'object' };
  const parsed = jsonValueOf(schema, value);
  if (!parsed) return zh(lang, `${label}不是有效的 JSON`, `${label} is not valid JSON`);
  if (nestsDeeperThan(parsed.value, MAX_JSON_DEPTH))
    return zh(
      lang,
      `${label}的嵌套不能超过 ${MAX_JSON_DEPTH} 层`,
      `${label} nests at most ${MAX_JSON_DEPTH} levels deep`,
    );
  const max = field.max ?? DEFAULT_JSON_MAX;
  const length = jsonLength(parsed.value);
  if (length === undefined || length > max)
    return zh(lang, `${label}最长 ${max} 个字符`, `${label} is at most ${max} characters of JSON`);
  const problem = findJsonProblem(schema, parsed.value);
  if (!problem) return undefined;
  const where = problem.path === '$' ? '' : problem.path.replace(/^\$\.?/, '');
  return lang === 'zh'
    ? `${label}${where ? `中的 ${where} ` : ''}${problem.zh}`
    : `${label}${where ? `: ${where}` : ''} ${problem.en}`;
}

function checkNumber(field: FieldDef, value: unknown, label: string, lang: Lang): string | undefined {
  const n = numberOf(field, value);
  const isInt = field.kind === 'int';
  if (n === undefined || (isInt && !Number.isInteger(n)))
    return zh(lang, `${label}应为${isInt ? '整数' : '数字'}`, `${label} must be a number`);
  if (field.options && 'items' in field.options && !field.options.items.some((i) => Number(i.value) === n))
    return zh(lang, `${label}的取值无效`, `${label} has an invalid value`);
  const range = field.range ?? (isInt ? ([INT4_MIN, INT4_MAX] as const) : undefined);
  if (range && (n < range[0] || n > range[1]))
    return zh(
      lang,
      `${label}应在 ${range[0]} 到 ${range[1]} 之间`,
      `${label} must be between ${range[0]} and ${range[1]}`,
    );
  return undefined;
}

/**
 * Checks one submitted value against its field's rules. Returns the message to show, or
 * undefined when the value is acceptable. The web form runs it on blur, the server on submit.
 * With the row the value belongs to, a `requiredWhen` condition applies too.
 * Every kind takes only the JSON types it travels as: text fields take strings (a number or a
 * boolean is refused, not stored as its text), numbers take numbers or numeric text, ids take
 * digits (or exact JSON numbers), and each value must fit its column.
 */
export function checkField(field: FieldDef, value: unknown, lang: Lang, row?: RowValues): string | undefined {
  if (isEmptyValue(value)) {
    const required = row ? isFieldRequired(field, row) : field.required === true;
    return required ? requiredMessage(field, lang) : undefined;
  }
  const label = field.label[lang];
  const invalid = zh(lang, `${label}无效`, `${label} is invalid`);
  switch (field.kind) {
    case 'int':
      return checkNumber(field, value, label, lang);
    case 'decimal':
      return checkDecimal(field, value, label, lang);
    case 'boolean':
      return booleanOf(value) === undefined
        ? zh(lang, `${label}应为是或否`, `${label} must be true or false`)
        : undefined;
    case 'date':
      return typeof value === 'string' && parseDay(value)
        ? undefined
        : zh(lang, `${label}的格式应为 yyyy-MM-dd`, `${label} must look like yyyy-MM-dd`);
    case 'json':
      return checkJson(field, value, label, lang);
    case 'id':
    case 'reference':
      return idOf(value) === undefined ? invalid : undefined;
    case 'ids': {
      const ids = idsOf(value);
      if (!ids) return invalid;
      const max = maxLengthOf(field) as number;
      return ids.join(',').length > max
        ? zh(lang, `${label}最长 ${max} 个字符`, `${label} is at most ${max} characters`)
        : undefined;
    }
    case 'datetime':
      return typeof value === 'string' && parseDateTime(value)
        ? undefined
        : zh(lang, `${label}的格式应为 yyyy-MM-dd HH:mm:ss`, `${label} must look like yyyy-MM-dd HH:mm:ss`);
    default: {
      if (isNumberAsText(field, value)) return checkField(field, String(value), lang, row);
      if (typeof value !== 'string') return zh(lang, `${label}应为文本`, `${label} must be text`);
      if (field.options && 'items' in field.options && !field.options.items.some((i) => String(i.value) === value))
        return zh(lang, `${label}的取值无效`, `${label} has an invalid value`);
      const max = maxLengthOf(field);
      if (max !== undefined && lengthOf(value) > max)
        return zh(lang, `${label}最长 ${max} 个字符`, `${label} is at most ${max} characters`);
      if (field.pattern && !new RegExp(field.pattern.regex).test(value)) return field.pattern.message[lang];
      return undefined;
    }
  }
}

/**
 * A submitted value in its stored form; `undefined` leaves the column as it is. Decimals and
 * days are text (`"12.50"`, `"2026-11-24"`), `json` values their parsed JSON.
 */
export type StoredValue =
  string | number | boolean | Date | null | undefined | JsonValue[] | { [key: string]: JsonValue };

export interface SubmitCheck {
  /** Normalised values of the submittable fields present in the body. */
  values: Record<string, StoredValue>;
  /** The first message per failing field. */
  errors: Record<string, string>;
}

/**
 * The row a submit describes, as conditions read it: what was sent over what is stored (update)
 * or over the defaults (add).
 */
function rowOfSubmit(def: ResourceDef, body: RowValues, adding: boolean, stored: RowValues | undefined) {
  const row: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(def.fields)) {
    if (Object.prototype.hasOwnProperty.call(body, name)) row[name] = body[name];
    else row[name] = adding ? field.default : stored?.[name];
  }
  return row;
}

/**
 * Validates a submit body: only fields the form may change are read (no mass assignment of
 * tenant, audit or undeclared fields). Adding requires every required field; updating checks
 * only the fields sent, and, given the stored row (`stored`, secrets included), also a field
 * that a changed condition made required while its stored value is empty. Fields whose
 * `visibleWhen` does not hold are ignored.
 */
export function validateSubmit(
  def: ResourceDef,
  body: Record<string, unknown>,
  adding: boolean,
  lang: Lang = 'zh',
  stored?: RowValues,
) {
  const result: SubmitCheck = { values: {}, errors: {} };
  const row = rowOfSubmit(def, body, adding, stored);
  for (const [name, field] of Object.entries(def.fields)) {
    if (!isSubmittable(field, adding) || !isFieldVisible(field, row)) continue;
    const present = Object.prototype.hasOwnProperty.call(body, name);
    const raw = body[name];
    // Left as stored (not sent on update, or a secret left empty): the stored value must do.
    if ((!present && !adding) || (field.kind === 'secret' && !adding && isEmptyValue(raw))) {
      if (stored && isFieldRequired(field, row) && field.requiredWhen && isEmptyValue(stored[name]))
        result.errors[name] = requiredMessage(field, lang);
      continue;
    }
    if (!present && field.default !== undefined) continue;
    const message = checkField(field, raw, lang, row);
    if (message) {
      result.errors[name] = message;
      continue;
    }
    result.values[name] = normalise(field, raw);
  }
  deriveValues(def, body, adding, stored, row, result);
  return result;
}

/**
 * Fills the derived fields from the row as it will be stored. An update is computed only with
 * the stored row at hand (the server's second check), and only when one of `from` was sent.
 */
function deriveValues(
  def: ResourceDef,
  body: RowValues,
  adding: boolean,
  stored: RowValues | undefined,
  row: RowValues,
  result: SubmitCheck,
) {
  if (!adding && !stored) return;
  const merged = { ...row, ...result.values };
  for (const [name, field] of Object.entries(def.fields)) {
    const derive = field.derive;
    if (!derive) continue;
    if (!adding && !derive.from.some((f) => Object.prototype.hasOwnProperty.call(body, f))) continue;
    result.values[name] = derive.value(merged);
  }
}

/** The stored value of an empty submit, by kind. */
function emptyValue(field: FieldDef): StoredValue {
  switch (field.kind) {
    case 'int':
    case 'decimal':
    case 'boolean':
      if (field.nullable) return null;
      if (field.default !== undefined && !isEmptyValue(field.default)) return normalise(field, field.default);
      // The column is NOT NULL with this default (see the server's resource tables).
      return field.kind === 'int' ? 0 : field.kind === 'boolean' ? false : normalise(field, 0);
    case 'datetime':
      return field.nullable ? null : field.default !== undefined ? (field.default as string) : null;
    case 'id':
      return field.nullable ? null : '0';
    case 'date':
    case 'json':
    case 'reference':
      return null;
    default:
      return '';
  }
}

function normalise(field: FieldDef, raw: unknown): StoredValue {
  if (isEmptyValue(raw)) return emptyValue(field);
  // checkField has accepted the value, so each conversion below is defined.
  switch (field.kind) {
    case 'int':
      return numberOf(field, raw) as number;
    case 'decimal': {
      const read = readDecimal(raw, decimalShapeOf(field));
      return read.ok ? read.text : null;
    }
    case 'boolean':
      return booleanOf(raw) as boolean;
    case 'date':
      return parseDay(raw as string) as string;
    case 'json':
      return jsonValueOf(field.schema ?? { type: 'object' }, raw)?.value as StoredValue;
    case 'reference':
      return idOf(raw) as string;
    case 'datetime':
      return parseDateTime(raw as string) as Date;
    case 'id':
      return idOf(raw) as string;
    case 'ids':
      return (idsOf(raw) as string[]).join(',');
    case 'string':
      return isNumberAsText(field, raw) ? String(raw) : (raw as string).trim();
    default:
      return raw as string;
  }
}

/** A number a `numberAsText` field takes as its text (define.ts). */
const isNumberAsText = (field: FieldDef, value: unknown): value is number =>
  field.kind === 'string' && field.numberAsText === true && typeof value === 'number' && Number.isFinite(value);

/** One child row as validated: its stored id when it names one, and its values in stored form. */
export interface ChildRowCheck {
  id?: string;
  values: Record<string, StoredValue>;
}

export interface ChildrenCheck {
  /** The rows of every collection the submit sets, in the order sent. */
  rows: Record<string, ChildRowCheck[]>;
  /** The first message per collection, naming the row (「站点」第 2 行: 请选择节点). */
  errors: Record<string, string>;
  /** Messages by collection, row index (from 0) and child field, for the form's sub-tables. */
  rowErrors: Record<string, Record<number, Record<string, string>>>;
}

/**
 * Validates the child rows of a submit (resource/children.ts), in the browser as on the server.
 * A collection absent from an update is left as stored; absent from an add it has no rows.
 * Each row is checked by its child definition's own rules as a complete row (a row is always
 * sent whole); its `id`, when given, must be an id (the server checks that it is this parent's).
 */
export function validateChildren(
  def: ResourceDef,
  body: Record<string, unknown>,
  adding: boolean,
  lang: Lang = 'zh',
): ChildrenCheck {
  const result: ChildrenCheck = { rows: {}, errors: {}, rowErrors: {} };
  for (const { name, collection, child } of childCollectionsOf(def)) {
    const present = Object.prototype.hasOwnProperty.call(body, name);
    if (!present && !adding) continue;
    const raw = present ? body[name] : [];
    const label = collection.label[lang];
    if (raw !== null && raw !== undefined && !Array.isArray(raw)) {
      result.errors[name] = zh(lang, `「${label}」应为列表`, `${label} must be a list`);
      continue;
    }
    const list: unknown[] = raw ?? [];
    const min = collection.min ?? 0;
    const max = collection.max ?? DEFAULT_MAX_CHILD_ROWS;
    if (list.length > max) {
      result.errors[name] = zh(lang, `「${label}」最多 ${max} 行`, `${label} has at most ${max} rows`);
      continue;
    }
    if (list.length < min) {
      result.errors[name] = zh(lang, `「${label}」至少 ${min} 行`, `${label} needs at least ${min} rows`);
      continue;
    }
    const rows: ChildRowCheck[] = [];
    const rowErrors: Record<number, Record<string, string>> = {};
    const seen = new Set<string>();
    list.forEach((item, index) => {
      const fail = (field: string, message: string) => {
        (rowErrors[index] ??= {})[field] = message;
        result.errors[name] ??= childRowMessage(collection, index + 1, message, lang);
      };
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        fail('id', zh(lang, '格式不正确', 'is not a row'));
        return;
      }
      const row = item as Record<string, unknown>;
      const rawId = row.id;
      const id = isEmptyValue(rawId) || rawId === '0' ? undefined : idOf(rawId);
      if (!isEmptyValue(rawId) && rawId !== '0' && id === undefined)
        fail('id', zh(lang, '编号无效', 'has an invalid id'));
      const checked = validateSubmit(child, row, true, lang);
      for (const [field, message] of Object.entries(checked.errors)) fail(field, message);
      if (collection.unique && !rowErrors[index]) {
        const key = JSON.stringify(collection.unique.fields.map((f) => String(checked.values[f] ?? '')));
        if (seen.has(key)) fail(collection.unique.fields[0] ?? 'id', collection.unique.message[lang]);
        seen.add(key);
      }
      rows.push(id === undefined ? { values: checked.values } : { id, values: checked.values });
    });
    if (Object.keys(rowErrors).length) result.rowErrors[name] = rowErrors;
    else result.rows[name] = rows;
  }
  return result;
}

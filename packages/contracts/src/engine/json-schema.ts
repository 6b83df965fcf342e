import type { LocalText } from './local-text';

/**
 * The shape a `json` field's value must have: a small subset of JSON Schema, declared in the
 * resource definition and checked the same way by the form and the server.
 */
export type JsonSchema =
  | {
      type: 'object';
      properties?: Readonly<Record<string, JsonSchema>>;
      required?: readonly string[];
      /** Properties not listed in `properties` are refused when false (JSON Schema's default: allowed). */
      additionalProperties?: boolean;
    }
  | {
      type: 'array';
      items?: JsonSchema;
      maxItems?: number;
      /**
       * Items are objects and no two may have the same value of this property (compared as
       * text, so `1` and `"1"` are the same): an enumeration's values, a list of keyed pairs.
       */
      uniqueBy?: string;
    }
  | { type: 'string'; minLength?: number; maxLength?: number; enum?: readonly string[]; title?: LocalText }
  | {
      type: 'number' | 'integer';
      minimum?: number;
      maximum?: number;
      enum?: readonly number[];
      /** A property's heading where the form edits a list of objects as rows (JsonListInput). */
      title?: LocalText;
    }
  | { type: 'boolean' };

/** A value JSON can carry. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What is wrong at a place in the value; the caller words it in the interface language. */
export interface JsonProblem {
  /** Where, as `$`, `$.rules[2].limit`. */
  path: string;
  zh: string;
  en: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

const child = (path: string, key: string) =>
  IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

const typeNames = {
  object: { zh: '对象', en: 'an object' },
  array: { zh: '数组', en: 'an array' },
  string: { zh: '文本', en: 'text' },
  number: { zh: '数字', en: 'a number' },
  integer: { zh: '整数', en: 'a whole number' },
  boolean: { zh: '布尔值', en: 'true or false' },
} as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function typeMatches(schema: JsonSchema, value: unknown): boolean {
  switch (schema.type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}

/**
 * The first place where `value` breaks `schema`, or undefined when it conforms. The walk
 * follows the schema, so a value nested deeper than the schema is never descended into.
 */
export function findJsonProblem(schema: JsonSchema, value: unknown, path = '$'): JsonProblem | undefined {
  if (!typeMatches(schema, value)) {
    const name = typeNames[schema.type];
    return { path, zh: `应为${name.zh}`, en: `must be ${name.en}` };
  }
  switch (schema.type) {
    case 'object': {
      const object = value as Record<string, unknown>;
      for (const key of schema.required ?? [])
        if (!hasOwn(object, key) || object[key] === undefined)
          return { path: child(path, key), zh: '不能缺少', en: 'is required' };
      const properties = schema.properties ?? {};
      for (const [key, item] of Object.entries(object)) {
        const sub = hasOwn(properties, key) ? properties[key] : undefined;
        if (sub) {
          const problem = findJsonProblem(sub, item, child(path, key));
          if (problem) return problem;
        } else if (schema.additionalProperties === false) {
          return { path: child(path, key), zh: '不是可用的属性', en: 'is not an allowed property' };
        }
      }
      return undefined;
    }
    case 'array': {
      const array = value as unknown[];
      if (schema.maxItems !== undefined && array.length > schema.maxItems)
        return { path, zh: `最多 ${schema.maxItems} 项`, en: `has at most ${schema.maxItems} items` };
      if (schema.items)
        for (let i = 0; i < array.length; i++) {
          const problem = findJsonProblem(schema.items, array[i], `${path}[${i}]`);
          if (problem) return problem;
        }
      return schema.uniqueBy === undefined ? undefined : findRepeated(array, schema.uniqueBy, path);
    }
    case 'string': {
      const text = value as string;
      if (schema.enum && !schema.enum.includes(text))
        return { path, zh: `应为 ${schema.enum.join(' / ')} 之一`, en: `must be one of ${schema.enum.join(', ')}` };
      if (schema.minLength !== undefined && [...text.trim()].length < schema.minLength)
        return schema.minLength === 1
          ? { path, zh: '不能为空', en: 'must not be empty' }
          : { path, zh: `至少 ${schema.minLength} 个字符`, en: `is at least ${schema.minLength} characters` };
      if (schema.maxLength !== undefined && [...text].length > schema.maxLength)
        return { path, zh: `最长 ${schema.maxLength} 个字符`, en: `is at most ${schema.maxLength} characters` };
      return undefined;
    }
    case 'number':
    case 'integer': {
      const n = value as number;
      if (schema.enum && !schema.enum.includes(n))
        return { path, zh: `应为 ${schema.enum.join(' / ')} 之一`, en: `must be one of ${schema.enum.join(', ')}` };
      if (schema.minimum !== undefined && n < schema.minimum)
        return { path, zh: `不能小于 ${schema.minimum}`, en: `must be at least ${schema.minimum}` };
      if (schema.maximum !== undefined && n > schema.maximum)
        return { path, zh: `不能大于 ${schema.maximum}`, en: `must be at most ${schema.maximum}` };
      return undefined;
    }
    case 'boolean':
      return undefined;
  }
}

/** The first item whose `key` repeats an earlier item's, named with the earlier one's position. */
function findRepeated(array: readonly unknown[], key: string, path: string): JsonProblem | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < array.length; i++) {
    const item = array[i];
    if (!isPlainObject(item) || !hasOwn(item, key) || item[key] === undefined || item[key] === null) continue;
    const text = String(item[key]).trim();
    const first = seen.get(text);
    if (first !== undefined)
      return {
        path: child(`${path}[${i}]`, key),
        zh: `与第 ${first + 1} 项重复`,
        en: `repeats item ${first + 1}`,
      };
    seen.set(text, i);
  }
  return undefined;
}

/** The characters a `json` field's value may take as JSON text, when the field declares no `max`. */
export const DEFAULT_JSON_MAX = 65_536;

/**
 * The value of a `json` field as submitted: the value itself, or (from a text area) its JSON
 * text when the schema asks for an object or an array. Undefined when the text is not JSON.
 */
export function jsonValueOf(schema: JsonSchema, raw: unknown): { value: unknown } | undefined {
  if (typeof raw !== 'string' || (schema.type !== 'object' && schema.type !== 'array')) return { value: raw };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * How deep a `json` value may nest. PostgreSQL parses jsonb recursively and refuses (with an
 * error, not a clear message) values nested deeper than its stack allows; no schema here
 * needs more than a handful of levels.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether arrays and objects nest deeper than `max` levels (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (pending.length) {
    const { node, depth } = pending.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      pending.push({ node: child, depth: depth + 1 });
  }
  return false;
}

/** The length of the value as JSON text; undefined when it cannot be written as JSON (too deep). */
export function jsonLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

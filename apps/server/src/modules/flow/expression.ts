import type { LocalText } from '@mes/contracts';
import { ExpressionMessages } from './flow-messages';

/**
 * The expressions of a process model: `${...}` in conditions, assignees, candidates, timer
 * durations and service-task parameters. Models come from tenants' administrators, so nothing
 * in them is ever run as JavaScript: this is a small language of its own, evaluated over the
 * process variables only.
 *
 * Grammar (JUEL-like, what Flowable models use for these attributes):
 *   literals  `12`, `3.5`, `'text'`, `"text"`, `true`, `false`, `null`
 *   names     `days`, `leave.type` (member access on a variable's object value)
 *   unary     `!x`, `not x`, `-x`, `empty x`
 *   binary    `* / %`, `+ -` (+ joins text when either side is text), `< <= > >=` (`lt le gt ge`),
 *             `== !=` (`eq ne`), `&&` (`and`), `||` (`or`)
 *   ternary   `a ? b : c`, parentheses
 * A name that is not a variable is `undefined` (so `${pass}` is false until a task sets it).
 */

export class ExpressionError extends Error {
  constructor(readonly text: LocalText) {
    super(text.zh);
  }
}

type Value = unknown;
type Scope = (name: string) => Value;

interface Token {
  type: 'num' | 'str' | 'name' | 'op' | 'end';
  value: string;
}

const WORD_OPS: Record<string, string> = {
  and: '&&',
  or: '||',
  not: '!',
  eq: '==',
  ne: '!=',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
  empty: 'empty',
};
const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '+', '-', '*', '/', '%', '(', ')', '?', ':', '.'];
const MAX_LENGTH = 1000;

function tokenize(text: string): Token[] {
  if (text.length > MAX_LENGTH) throw new ExpressionError(ExpressionMessages.tooLong(MAX_LENGTH));
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i)) as RegExpExecArray;
      tokens.push({ type: 'num', value: m[0] });
      i += m[0].length;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      let out = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        out += text[j];
        j++;
      }
      if (j >= text.length) throw new ExpressionError(ExpressionMessages.unterminated(text));
      tokens.push({ type: 'str', value: out });
      i = j + 1;
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i)) as RegExpExecArray;
      const word = m[0];
      const op = Object.hasOwn(WORD_OPS, word) ? WORD_OPS[word] : undefined;
      tokens.push(op ? { type: 'op', value: op } : { type: 'name', value: word });
      i += word.length;
    } else {
      const op = OPERATORS.find((o) => text.startsWith(o, i));
      if (!op) throw new ExpressionError(ExpressionMessages.badCharacter(c, text));
      tokens.push({ type: 'op', value: op });
      i += op.length;
    }
  }
  tokens.push({ type: 'end', value: '' });
  return tokens;
}

/** A parsed expression: call it with a scope to get its value. */
export type Compiled = (scope: Scope) => Value;

const BINARY_PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
};

const num = (v: Value): number => (typeof v === 'number' ? v : Number(v));
const isEmpty = (v: Value) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
  if (typeof a === 'number' || typeof b === 'number') return num(a) === num(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return String(a) === String(b);
  return false;
}

function compare(op: string, a: Value, b: Value): boolean {
  const both = typeof a === 'string' && typeof b === 'string';
  const x = both ? (a as string) : num(a);
  const y = both ? (b as string) : num(b);
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

function applyBinary(op: string, a: Value, b: Value): Value {
  switch (op) {
    case '==':
      return equal(a, b);
    case '!=':
      return !equal(a, b);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(op, a, b);
    case '+':
      return typeof a === 'string' || typeof b === 'string' ? `${String(a ?? '')}${String(b ?? '')}` : num(a) + num(b);
    case '-':
      return num(a) - num(b);
    case '*':
      return num(a) * num(b);
    case '/':
      return num(a) / num(b);
    default:
      return num(a) % num(b);
  }
}

function member(object: Value, name: string): Value {
  if (object === null || typeof object !== 'object') return undefined;
  // Own data only: no prototype, constructor or accessor reaches out of the variables.
  return Object.prototype.hasOwnProperty.call(object, name) ? (object as Record<string, Value>)[name] : undefined;
}

export function compileExpression(text: string): Compiled {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos] as Token;
  const next = () => tokens[pos++] as Token;
  const expect = (value: string) => {
    const t = next();
    if (t.type !== 'op' || t.value !== value) throw new ExpressionError(ExpressionMessages.missing(value, text));
  };

  function primary(): Compiled {
    const t = next();
    if (t.type === 'num') {
      const n = Number(t.value);
      return () => n;
    }
    if (t.type === 'str') return () => t.value;
    if (t.type === 'name') {
      if (t.value === 'true') return () => true;
      if (t.value === 'false') return () => false;
      if (t.value === 'null') return () => null;
      let get: Compiled = (scope) => scope(t.value);
      while (peek().type === 'op' && peek().value === '.') {
        next();
        const prop = next();
        if (prop.type !== 'name') throw new ExpressionError(ExpressionMessages.nameAfterDot(text));
        const of = get;
        get = (scope) => member(of(scope), prop.value);
      }
      return get;
    }
    if (t.type === 'op' && t.value === '(') {
      const inner = ternary();
      expect(')');
      return inner;
    }
    if (t.type === 'op' && (t.value === '!' || t.value === '-' || t.value === 'empty')) {
      const operand = primary();
      if (t.value === '!') return (s) => !operand(s);
      if (t.value === '-') return (s) => -num(operand(s));
      return (s) => isEmpty(operand(s));
    }
    throw new ExpressionError(ExpressionMessages.incomplete(text));
  }

  function binary(minPrecedence: number): Compiled {
    let left = primary();
    for (;;) {
      const t = peek();
      const precedence = t.type === 'op' ? BINARY_PRECEDENCE[t.value] : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      next();
      const right = binary(precedence + 1);
      const l = left;
      if (t.value === '&&') left = (s) => Boolean(l(s)) && Boolean(right(s));
      else if (t.value === '||') left = (s) => Boolean(l(s)) || Boolean(right(s));
      else left = (s) => applyBinary(t.value, l(s), right(s));
    }
  }

  function ternary(): Compiled {
    const condition = binary(1);
    if (peek().type === 'op' && peek().value === '?') {
      next();
      const yes = ternary();
      expect(':');
      const no = ternary();
      return (s) => (condition(s) ? yes(s) : no(s));
    }
    return condition;
  }

  const compiled = ternary();
  if (peek().type !== 'end') throw new ExpressionError(ExpressionMessages.trailing(text));
  return compiled;
}

const cache = new Map<string, Compiled>();
const WHOLE = /^\s*\$\{([\s\S]+)\}\s*$/;
const PART = /\$\{([^}]+)\}/g;

function compiledOf(body: string): Compiled {
  let compiled = cache.get(body);
  if (!compiled) {
    compiled = compileExpression(body);
    if (cache.size > 5000) cache.clear();
    cache.set(body, compiled);
  }
  return compiled;
}

/**
 * `${expr}` alone → its value; text with `${...}` parts → the text with each part's value;
 * anything else → the text as it is.
 */
export function evaluateTemplate(text: string, variables: Record<string, unknown>): unknown {
  const scope: Scope = (name) => member(variables, name);
  const whole = WHOLE.exec(text);
  if (whole) return compiledOf(whole[1] as string)(scope);
  if (!text.includes('${')) return text;
  return text.replace(PART, (_, body: string) => {
    const value = compiledOf(body)(scope);
    return value === undefined || value === null ? '' : String(value);
  });
}

/** Checks every `${...}` of a model's attribute; the message names the first fault. */
export function checkTemplate(text: string): LocalText | undefined {
  try {
    const whole = WHOLE.exec(text);
    if (whole) compileExpression(whole[1] as string);
    else for (const m of text.matchAll(PART)) compileExpression(m[1] as string);
    return undefined;
  } catch (error) {
    if (error instanceof ExpressionError) return error.text;
    throw error;
  }
}

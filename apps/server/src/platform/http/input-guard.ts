import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inputWhy, invalidParamText, type BilingualText } from '@mes/contracts';
import { badRequest } from './errors';

/** Deeper than any form or filter a client sends; a walk that deep is an attack, not data. */
const MAX_DEPTH = 32;

/**
 * Characters no text column can hold: PostgreSQL refuses the NUL byte outright (a 500 if it
 * reached a query), and a surrogate half would be stored silently changed to U+FFFD.
 */
const NUL = String.fromCharCode(0);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface BadInput {
  /** Where the value sits: `name`, `roleIds[2]`, `ext.title`. */
  param: string;
  why: BilingualText;
}

/** A parameter's path, with characters that could not be shown in a message replaced. */
const shown = (path: string) =>
  path.split(NUL).join('?').replace(new RegExp(LONE_SURROGATE.source, 'g'), '?') || '(empty)';

function whyUnstorable(text: string): BilingualText | undefined {
  if (text.includes(NUL)) return inputWhy('nulChar');
  return LONE_SURROGATE.test(text) ? inputWhy('brokenChar') : undefined;
}

/**
 * The first value anywhere in `value` (keys included) that no route can store or use; walks
 * iteratively so a deeply nested body cannot exhaust the stack.
 */
export function findBadInput(value: unknown, root: string): BadInput | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length) {
    const item = stack.pop() as (typeof stack)[number];
    if (typeof item.value === 'string') {
      const why = whyUnstorable(item.value);
      if (why) return { param: shown(item.path), why };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (Buffer.isBuffer(item.value)) continue;
    if (item.depth >= MAX_DEPTH) return { param: shown(item.path), why: inputWhy('tooDeep') };
    if (Array.isArray(item.value)) {
      item.value.forEach((v, i) => stack.push({ value: v, path: `${item.path}[${i}]`, depth: item.depth + 1 }));
      continue;
    }
    for (const [key, v] of Object.entries(item.value as Record<string, unknown>)) {
      const path = item.path ? `${item.path}.${key}` : key;
      const keyWhy = whyUnstorable(key);
      if (keyWhy) return { param: shown(path), why: keyWhy };
      stack.push({ value: v, path, depth: item.depth + 1 });
    }
  }
  return undefined;
}

/** Checks everything the handler may read: path parameters, query string, body, headers. */
export function checkRequestInput(request: FastifyRequest): void {
  const bad =
    findBadInput(request.params, '') ??
    findBadInput(request.query, '') ??
    findBadInput(request.body, '') ??
    findBadInput(request.headers, '');
  if (bad) throw badRequest(invalidParamText(bad.param, bad.why));
}

/**
 * Refuses, before any handler runs, request values no route can store or use, with a 400
 * naming the parameter. `preValidation` is the first hook that sees the parsed body (and runs
 * after the route guard, so an anonymous caller still gets 401 first). Multipart bodies are
 * not parsed by then: the upload route reads only the file, whose name it checks itself.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    checkRequestInput(request);
  });
}

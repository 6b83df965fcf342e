import type { FastifyRequest } from 'fastify';
import { bilingual, inputWhy, invalidParamText } from '@mes/contracts';
import { splitIds } from '../auth/request-auth';
import { isId } from '../db/ids';
import { badRequest } from './errors';

const DEFAULT_MAX_IDS = 1000;

/**
 * The parameters of a BladeX call: a form or JSON body overlaid by the query string (clients send
 * `ids`, `roleIds`, ... either way).
 */
export function paramsOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {};
  return { ...(body as Record<string, unknown>), ...(request.query as Record<string, unknown>) };
}

/** One parameter, from the query string, else from the body. */
export const paramOf = (request: FastifyRequest, name: string): unknown => paramsOf(request)[name];

/** One text parameter (numbers and booleans as their text); an object or list is a 400. */
export function textParam(request: FastifyRequest, name: string): string | undefined {
  const value = paramOf(request, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') throw badRequest(invalidParamText(name, inputWhy('text')));
  return String(value);
}

/** Ids as JSON numbers lose precision above 2^53, so only safe integers are taken as numbers. */
function idText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' ? value.trim() : undefined;
}

const isAbsent = (value: unknown) => value === undefined || value === null || value === '';

/** One id: `fallback` when absent, 缺少必要的请求参数 when absent without one. */
export function idValue(value: unknown, name: string, fallback?: string): string {
  if (isAbsent(value) || (typeof value === 'string' && !value.trim())) {
    if (fallback !== undefined) return fallback;
    throw badRequest(bilingual('missingParam', name));
  }
  const id = idText(value);
  if (id === undefined || !isId(id)) throw badRequest(invalidParamText(name, inputWhy('id')));
  return id;
}

export const idParam = (params: Record<string, unknown>, name: string, fallback?: string): string =>
  idValue(params[name], name, fallback);

export interface IdListOptions {
  /** An empty list is refused with 缺少必要的请求参数. */
  required?: boolean;
  max?: number;
  /** Keep repeated ids (for callers that refuse them with their own message). */
  keepDuplicates?: boolean;
}

/** Comma-joined ids, or a JSON array of ids. */
export function idsValue(value: unknown, name: string, options: IdListOptions = {}): string[] {
  const max = options.max ?? DEFAULT_MAX_IDS;
  let parts: (string | undefined)[];
  if (isAbsent(value)) parts = [];
  else if (Array.isArray(value)) parts = value.map(idText);
  else if (typeof value === 'string') parts = splitIds(value);
  else parts = [undefined];
  if (!parts.every((id): id is string => id !== undefined && isId(id)))
    throw badRequest(invalidParamText(name, inputWhy('ids')));
  const ids = options.keepDuplicates ? parts : [...new Set(parts)];
  if (ids.length > max)
    throw badRequest(invalidParamText(name, { zh: `一次最多 ${max} 条`, en: `at most ${max} at a time` }));
  if (options.required && !ids.length) throw badRequest(bilingual('missingParam', name));
  return ids;
}

/** Grants name many menus at once, hence the larger default. */
export const idsParam = (params: Record<string, unknown>, name: string, required: boolean, max = 5000): string[] =>
  idsValue(params[name], name, { required, max });

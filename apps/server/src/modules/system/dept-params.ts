import type { FastifyRequest } from 'fastify';
import { Messages } from '@mes/contracts';
import { splitIds } from '../../platform/auth/request-auth';
import { badRequest } from '../../platform/http/errors';
import { DeptCategory, ID } from './dept-rules';

/** A parameter from the query string, else from the body (BladeX clients send either). */
export function paramOf(request: FastifyRequest, name: string): unknown {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && query[name] !== undefined) return query[name];
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

const text = (value: unknown) =>
  typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value;

export function requiredId(value: unknown, name: string): string {
  const v = text(value);
  if (v === undefined || v === null || v === '') throw badRequest(Messages.missingParam(name));
  if (typeof v !== 'string' || !ID.test(v)) throw badRequest(Messages.invalidParam(name, '应为编号'));
  return v;
}

export function optionalId(value: unknown, name: string, fallback: string): string {
  const v = text(value);
  return v === undefined || v === null || v === '' ? fallback : requiredId(v, name);
}

const CATEGORY_VALUES: readonly number[] = Object.values(DeptCategory);

export function categoryOf(value: unknown, name: string, required: boolean): number | undefined {
  const v = text(value);
  if (v === undefined || v === null || v === '') {
    if (required) throw badRequest(Messages.missingParam(name));
    return undefined;
  }
  const n = Number(v);
  if (!CATEGORY_VALUES.includes(n)) throw badRequest(Messages.invalidParam(name, '应为 1 到 5 的机构类型'));
  return n;
}

/** Comma-joined ids, or an array of ids (JSON bodies); empty is allowed and means none. */
export function idListOf(value: unknown, name: string, max = 1000): string[] {
  const list = Array.isArray(value)
    ? value.map((v) => String(text(v)))
    : value == null
      ? []
      : splitIds(String(text(value)));
  if (!list.every((id) => ID.test(id))) throw badRequest(Messages.invalidParam(name, '应为逗号分隔的编号'));
  if (list.length > max) throw badRequest(Messages.invalidParam(name, `一次最多 ${max} 条`));
  return list;
}

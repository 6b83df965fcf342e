import type { FastifyRequest } from 'fastify';
import { Messages } from '@mes/contracts';
import { splitIds } from '../../platform/auth/request-auth';
import { badRequest } from '../../platform/http/errors';

const MAX_IDS = 5000;
const ID = /^\d{1,19}$/;

/** Query values first, then a form or JSON body: the BladeX clients send grants either way. */
export function paramsOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {};
  return { ...(body as Record<string, unknown>), ...(request.query as Record<string, unknown>) };
}

/**
 * Comma-joined ids (or a JSON array of id strings), without duplicates. `required` refuses an empty
 * list with 缺少必要的请求参数.
 */
export function idsParam(params: Record<string, unknown>, name: string, required: boolean): string[] {
  const raw = params[name];
  let parts: string[];
  if (raw === undefined || raw === null) parts = [];
  else if (typeof raw === 'string') parts = splitIds(raw);
  // Ids as JSON numbers would lose precision above 2^53, so an array must hold strings.
  else if (Array.isArray(raw) && raw.every((v) => typeof v === 'string'))
    parts = raw.map((v) => v.trim()).filter(Boolean);
  else throw badRequest(Messages.invalidParam(name, '应为逗号分隔的编号'));
  if (!parts.every((id) => ID.test(id))) throw badRequest(Messages.invalidParam(name, '应为逗号分隔的编号'));
  if (parts.length > MAX_IDS) throw badRequest(Messages.invalidParam(name, `一次最多 ${MAX_IDS} 个`));
  if (required && !parts.length) throw badRequest(Messages.missingParam(name));
  return [...new Set(parts)];
}

/** One id; `fallback` when absent, 缺少必要的请求参数 when absent without one. */
export function idParam(params: Record<string, unknown>, name: string, fallback?: string): string {
  const raw = params[name];
  if (raw === undefined || raw === null || raw === '') {
    if (fallback !== undefined) return fallback;
    throw badRequest(Messages.missingParam(name));
  }
  if (typeof raw !== 'string' || !ID.test(raw)) throw badRequest(Messages.invalidParam(name, '应为编号'));
  return raw;
}

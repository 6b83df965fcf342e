import { badRequest } from '../platform/http/errors';

/**
 * Throws a 400 for the first fault of a validation, in both languages. The validators take the
 * language as an argument, so the English pass runs only when the Chinese one found a fault:
 * a valid request pays for one pass, and the reply is in the caller's language.
 */
export function throwFirstFault(errors: Record<string, string>, inEnglish: () => Record<string, string>): void {
  const key = Object.keys(errors)[0];
  if (key === undefined) return;
  const zh = errors[key] as string;
  throw badRequest({ zh, en: inEnglish()[key] ?? zh });
}

import type { FastifyRequest } from 'fastify';

export type ReplyLanguage = 'zh' | 'en';

/**
 * The language a reply's message is written in: English when the caller's most preferred
 * `Accept-Language` is English (the web app sends its chosen language on every call), else
 * Chinese — what BladeX clients, which send nothing or a browser's list, expect.
 */
export function languageOf(acceptLanguage: string | undefined): ReplyLanguage {
  if (!acceptLanguage) return 'zh';
  let best: { lang: string; q: number } | undefined;
  for (const part of acceptLanguage.split(',').slice(0, 16)) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!tag || !(q > 0)) continue;
    if (!best || q > best.q) best = { lang: tag.toLowerCase(), q };
  }
  return best && (best.lang === 'en' || best.lang.startsWith('en-')) ? 'en' : 'zh';
}

export const requestLanguage = (request: FastifyRequest): ReplyLanguage =>
  languageOf(request.headers['accept-language']);

import { bilingual, ResultCode, type BilingualText } from '@mes/contracts';

/**
 * An error that becomes an envelope reply with this code (which is also the HTTP status). Its
 * text is one language (`string`, Chinese: the module messages not yet translated) or both, and
 * then the reply is in the caller's (`Accept-Language`, see request-language.ts).
 */
export class HttpError extends Error {
  readonly text: BilingualText | undefined;
  constructor(
    readonly code: number,
    message: string | BilingualText,
  ) {
    super(typeof message === 'string' ? message : message.zh);
    this.text = typeof message === 'string' ? undefined : message;
  }

  /** The message in `lang` when it has one, else the one it has. */
  textIn(lang: 'zh' | 'en'): string {
    return this.text ? this.text[lang] : this.message;
  }
}

export const badRequest = (msg: string | BilingualText = bilingual('badRequest')) =>
  new HttpError(ResultCode.BAD_REQUEST, msg);
export const unauthorized = () => new HttpError(ResultCode.UNAUTHORIZED, bilingual('unauthorized'));
export const forbidden = () => new HttpError(ResultCode.FORBIDDEN, bilingual('forbidden'));
export const notFound = (msg: string | BilingualText = bilingual('notFound')) =>
  new HttpError(ResultCode.NOT_FOUND, msg);

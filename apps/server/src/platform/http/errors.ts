import { Messages, ResultCode } from '@mes/contracts';

/** An error that becomes an envelope reply with this code (which is also the HTTP status). */
export class HttpError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string = Messages.badRequest) => new HttpError(ResultCode.BAD_REQUEST, msg);
export const unauthorized = () => new HttpError(ResultCode.UNAUTHORIZED, Messages.unauthorized);
export const forbidden = () => new HttpError(ResultCode.FORBIDDEN, Messages.forbidden);
export const notFound = (msg: string = Messages.notFound) => new HttpError(ResultCode.NOT_FOUND, msg);

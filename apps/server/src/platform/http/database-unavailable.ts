import type { BilingualText } from '@mes/contracts';

/**
 * What a caller hears while the database cannot be reached (`isDatabaseUnavailable`): a 503 that
 * says to come back, instead of a 500 that says to call an administrator. The error log is not
 * written for it: it lives in that database.
 */
export const DATABASE_UNAVAILABLE_STATUS = 503;

export const DATABASE_UNAVAILABLE_TEXT: BilingualText = {
  zh: '数据库暂时不可用，请稍后重试',
  en: 'The database is unavailable; please try again shortly',
};

/** `Retry-After` of those replies: about how long a blip or a failover lasts. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

import type { SmsProvider } from './provider';

/** The tag of every development-provider log line; tests and operators search the log for it. */
export const DEVELOPMENT_LOG_TAG = 'sms-development';

/**
 * 开发环境: delivers nothing and writes the message to the server log instead, so sign-in by
 * phone can be tried without a provider account. The log line is the only trace of the message,
 * hence info level and a fixed tag; under NODE_ENV=production a warning says nothing was sent.
 */
export const developmentProvider: SmsProvider = {
  name: { zh: '开发环境', en: 'Development' },
  requires: ['templateId'],
  async send(config, message, context) {
    const entry = {
      tag: DEVELOPMENT_LOG_TAG,
      smsCode: config.smsCode,
      phones: message.phones,
      templateId: config.templateId,
      signName: config.signName,
      params: message.params,
    };
    context.log.info(
      entry,
      `[${DEVELOPMENT_LOG_TAG}] SMS not delivered (development provider): to ${message.phones.join(',')} ` +
        `template ${config.templateId} params ${JSON.stringify(message.params)}`,
    );
    if (process.env.NODE_ENV === 'production') {
      context.log.warn(
        { tag: DEVELOPMENT_LOG_TAG, smsCode: config.smsCode },
        `[${DEVELOPMENT_LOG_TAG}] SMS configuration ${config.smsCode} uses the development provider in production: ` +
          'messages are only logged, never delivered',
      );
    }
  },
};

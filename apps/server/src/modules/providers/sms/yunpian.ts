import { asRecord, callProvider, providerFailure, providerUrl, reason, replyText, type SmsProvider } from './provider';
import { SmsMessages } from './sms-messages';

const NAME = { zh: '云片', en: 'Yunpian' };
const HOST = 'https://sms.yunpian.com';

/** `tpl_value`: `#name#=value` pairs, each part URL-encoded (the form encoding then encodes it again). */
export function templateValue(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(`#${name}#`)}=${encodeURIComponent(value)}`)
    .join('&');
}

const failureOf = (item: Record<string, unknown>) =>
  reason(replyText(item.code), [replyText(item.msg), replyText(item.detail)].filter(Boolean).join(', '));

/**
 * Yunpian v2 template SMS: `tpl_single_send` for one number, `tpl_batch_send` for several. The
 * account's APIKEY is the only credential and is kept in SecretKey (sealed, never sent back).
 */
export const yunpianProvider: SmsProvider = {
  name: NAME,
  requires: ['secretKey', 'templateId'],
  async send(config, message, context) {
    const single = message.phones.length === 1;
    const url = providerUrl(config, HOST, single ? '/v2/sms/tpl_single_send.json' : '/v2/sms/tpl_batch_send.json');
    const form = new URLSearchParams({
      apikey: config.secretKey,
      mobile: message.phones.join(','),
      tpl_id: config.templateId,
      tpl_value: templateValue(message.params),
    });
    const reply = await callProvider(
      NAME,
      url,
      {
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8',
          Accept: 'application/json;charset=utf-8',
        },
        body: form.toString(),
      },
      context,
    );
    if (reply.json === undefined) throw providerFailure(NAME, SmsMessages.badReply(reply.status));
    const json = asRecord(reply.json);
    if (reply.status !== 200 || (json.code !== undefined && json.code !== 0))
      throw providerFailure(NAME, failureOf(json));
    if (single) {
      if (json.code !== 0) throw providerFailure(NAME, SmsMessages.badReply(reply.status));
      return;
    }
    // A batch answers per number; one refused number fails the send.
    const items = Array.isArray(json.data) ? json.data.map(asRecord) : [];
    if (!items.length) throw providerFailure(NAME, SmsMessages.badReply(reply.status));
    const failed = items.find((i) => i.code !== 0);
    if (failed) {
      const phone = replyText(failed.mobile);
      throw providerFailure(NAME, `${phone ? `${phone} ` : ''}${failureOf(failed)}`);
    }
  },
};

import { createHmac } from 'node:crypto';
import { asRecord, callProvider, providerFailure, providerUrl, reason, replyText, type SmsProvider } from './provider';
import { SmsMessages } from './sms-messages';

const NAME = { zh: '七牛云', en: 'Qiniu' };
const HOST = 'https://sms.qiniuapi.com';
const CONTENT_TYPE = 'application/json';

/**
 * `Authorization: Qiniu <AccessKey>:<sign>` (QiniuToken): HMAC-SHA1 over
 * `<METHOD> <path>[?<query>]\nHost: <host>\nContent-Type: <type>\n\n<body>`, URL-safe base64.
 */
export function qiniuAuthorization(
  accessKey: string,
  secretKey: string,
  r: { method: string; url: URL; contentType: string; body: string },
): string {
  const query = r.url.search.replace(/^\?/, '');
  const data =
    `${r.method} ${r.url.pathname}${query ? `?${query}` : ''}\nHost: ${r.url.host}\nContent-Type: ${r.contentType}\n\n` +
    r.body;
  const sign = createHmac('sha1', secretKey).update(data).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
  return `Qiniu ${accessKey}:${sign}`;
}

/** Qiniu Cloud SMS (`POST /v1/message`): one template, many numbers; the reply carries a job id. */
export const qiniuProvider: SmsProvider = {
  name: NAME,
  requires: ['accessKey', 'secretKey', 'templateId'],
  async send(config, message, context) {
    const url = providerUrl(config, HOST, '/v1/message');
    const body = JSON.stringify({
      template_id: config.templateId,
      mobiles: message.phones,
      parameters: message.params,
    });
    const reply = await callProvider(
      NAME,
      url,
      {
        headers: {
          Authorization: qiniuAuthorization(config.accessKey, config.secretKey, {
            method: 'POST',
            url,
            contentType: CONTENT_TYPE,
            body,
          }),
          'Content-Type': CONTENT_TYPE,
        },
        body,
      },
      context,
    );
    const json = asRecord(reply.json);
    if (reply.status === 200 && typeof json.job_id === 'string' && json.job_id) return;
    if (reply.json === undefined) throw providerFailure(NAME, SmsMessages.badReply(reply.status));
    throw providerFailure(NAME, reason(replyText(json.error), replyText(json.message)));
  },
};

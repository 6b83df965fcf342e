import { createHmac, randomUUID } from 'node:crypto';
import { asRecord, callProvider, providerFailure, providerUrl, reason, replyText, type SmsProvider } from './provider';
import { SmsMessages } from './sms-messages';

const NAME = { zh: '阿里云', en: 'Alibaba Cloud' };
const HOST = 'https://dysmsapi.aliyuncs.com';
const DEFAULT_REGION = 'cn-hangzhou';

/** RFC 3986 encoding as Alibaba Cloud's signature v1 wants it (encodeURIComponent leaves !'()* alone). */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `yyyy-MM-ddTHH:mm:ssZ` in UTC. */
const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The signed form body of an RPC call (signature v1): the parameters sorted by name and
 * percent-encoded, then `POST&%2F&<encoded query>` signed with HMAC-SHA1 under `secret&`.
 */
export function signRpc(params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k] as string)}`)
    .join('&');
  const stringToSign = `POST&${percentEncode('/')}&${percentEncode(canonical)}`;
  const signature = createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
  return `${canonical}&Signature=${percentEncode(signature)}`;
}

/** Alibaba Cloud SMS (dysmsapi 2017-05-25 `SendSms`), one request for up to 1000 numbers. */
export const aliyunProvider: SmsProvider = {
  name: NAME,
  requires: ['accessKey', 'secretKey', 'signName', 'templateId'],
  async send(config, message, context) {
    const params: Record<string, string> = {
      AccessKeyId: config.accessKey,
      Action: 'SendSms',
      Format: 'JSON',
      RegionId: config.regionId || DEFAULT_REGION,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      Timestamp: timestamp(context.now()),
      Version: '2017-05-25',
      PhoneNumbers: message.phones.join(','),
      SignName: config.signName,
      TemplateCode: config.templateId,
    };
    if (Object.keys(message.params).length) params.TemplateParam = JSON.stringify(message.params);
    const reply = await callProvider(
      NAME,
      providerUrl(config, HOST, '/'),
      {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: signRpc(params, config.secretKey),
      },
      context,
    );
    const body = asRecord(reply.json);
    if (reply.status === 200 && body.Code === 'OK') return;
    if (reply.json === undefined) throw providerFailure(NAME, SmsMessages.badReply(reply.status));
    throw providerFailure(NAME, reason(replyText(body.Code), replyText(body.Message)));
  },
};

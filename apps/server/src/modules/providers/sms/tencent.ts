import { createHash, createHmac } from 'node:crypto';
import { asRecord, callProvider, providerFailure, providerUrl, reason, replyText, type SmsProvider } from './provider';
import { SmsMessages } from './sms-messages';

const NAME = { zh: '腾讯云', en: 'Tencent Cloud' };
const HOST = 'https://sms.tencentcloudapi.com';
const SERVICE = 'sms';
const VERSION = '2021-01-11';
const DEFAULT_REGION = 'ap-guangzhou';
const CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * Template variables in order: Tencent Cloud templates number them `{1}`, `{2}`, ..., so numeric
 * names are sorted by number; other names keep the order they were given in.
 */
export function orderedValues(params: Record<string, string>): string[] {
  const names = Object.keys(params);
  if (names.length && names.every((n) => /^\d+$/.test(n))) names.sort((a, b) => Number(a) - Number(b));
  return names.map((n) => params[n] as string);
}

/** E.164 for mainland numbers, as `PhoneNumberSet` asks. */
const e164 = (phone: string) => (phone.startsWith('+') ? phone : `+86${phone}`);

export interface Tc3Request {
  secretId: string;
  secretKey: string;
  host: string;
  path: string;
  action: string;
  payload: string;
  timestamp: number;
}

/** The `Authorization` header of API 3.0 (TC3-HMAC-SHA256) for a JSON POST. */
export function tc3Authorization(r: Tc3Request): string {
  const date = new Date(r.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host;x-tc-action';
  const canonicalHeaders = `content-type:${CONTENT_TYPE}\nhost:${r.host}\nx-tc-action:${r.action.toLowerCase()}\n`;
  const canonicalRequest = ['POST', r.path, '', canonicalHeaders, signedHeaders, sha256Hex(r.payload)].join('\n');
  const scope = `${date}/${SERVICE}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(r.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${r.secretKey}`, date), SERVICE), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${r.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/** Tencent Cloud SMS (API 3.0 `SendSms`, version 2021-01-11), up to 200 numbers a request. */
export const tencentProvider: SmsProvider = {
  name: NAME,
  requires: ['accessKey', 'secretKey', 'appId', 'signName', 'templateId'],
  async send(config, message, context) {
    const url = providerUrl(config, HOST, '/');
    const payload = JSON.stringify({
      PhoneNumberSet: message.phones.map(e164),
      SmsSdkAppId: config.appId,
      SignName: config.signName,
      TemplateId: config.templateId,
      TemplateParamSet: orderedValues(message.params),
    });
    const timestamp = Math.floor(context.now() / 1000);
    const action = 'SendSms';
    const authorization = tc3Authorization({
      secretId: config.accessKey,
      secretKey: config.secretKey,
      host: url.host,
      path: url.pathname,
      action,
      payload,
      timestamp,
    });
    const reply = await callProvider(
      NAME,
      url,
      {
        headers: {
          Authorization: authorization,
          'Content-Type': CONTENT_TYPE,
          'X-TC-Action': action,
          'X-TC-Timestamp': String(timestamp),
          'X-TC-Version': VERSION,
          'X-TC-Region': config.regionId || DEFAULT_REGION,
        },
        body: payload,
      },
      context,
    );
    if (reply.json === undefined) throw providerFailure(NAME, SmsMessages.badReply(reply.status));
    const response = asRecord(asRecord(reply.json).Response);
    const error = asRecord(response.Error);
    if (response.Error !== undefined || reply.status !== 200) {
      throw providerFailure(NAME, reason(replyText(error.Code), replyText(error.Message)));
    }
    // The request can succeed while single numbers fail (daily limit, bad number, ...).
    const statuses = Array.isArray(response.SendStatusSet) ? response.SendStatusSet.map(asRecord) : [];
    if (!statuses.length) throw providerFailure(NAME, SmsMessages.badReply(reply.status));
    const failed = statuses.find((s) => s.Code !== 'Ok');
    if (failed) {
      const phone = replyText(failed.PhoneNumber);
      throw providerFailure(
        NAME,
        `${phone ? `${phone} ` : ''}${reason(replyText(failed.Code), replyText(failed.Message))}`,
      );
    }
  },
};

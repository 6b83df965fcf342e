import type { FastifyBaseLogger } from 'fastify';
import type { BilingualText } from '@mes/contracts';
import { badRequest, type HttpError } from '../../../platform/http/errors';
import { OutboundError } from '../../../platform/net/outbound-guard';
import { OutboundFailure, outboundRequest } from '../../../platform/net/outbound-http';
import { OutboundPolicy } from '../../../platform/net/outbound-policy';
import { SmsMessages } from './sms-messages';

/** A configuration row as a provider uses it: the secret key already opened. */
export interface SmsConfig {
  category: number;
  smsCode: string;
  templateId: string;
  accessKey: string;
  secretKey: string;
  appId: string;
  regionId: string;
  signName: string;
  /** Base-URL override; empty means the provider's documented host. */
  endpoint: string;
}

/** One template message to one or more mainland phone numbers (11 digits, checked before). */
export interface SmsMessage {
  phones: string[];
  /** Template variables by name; Tencent Cloud takes them in order (see `orderedValues`). */
  params: Record<string, string>;
}

export interface SendContext {
  now(): number;
  log: FastifyBaseLogger;
  /** Request time limit; providers are given 5 s. */
  timeoutMs: number;
  /** The platform's outbound policy; without one only public addresses are reached. */
  outbound?: OutboundPolicy;
}

export type SettingName = 'accessKey' | 'secretKey' | 'appId' | 'signName' | 'templateId';

export interface SmsProvider {
  /** Shown in messages: 阿里云, 腾讯云, ... */
  name: BilingualText;
  /** Settings the provider cannot send without. */
  requires: readonly SettingName[];
  send(config: SmsConfig, message: SmsMessage, context: SendContext): Promise<void>;
}

export const SETTING_LABELS: Record<SettingName, BilingualText> = {
  accessKey: { zh: 'AccessKey', en: 'AccessKey' },
  secretKey: { zh: 'SecretKey', en: 'SecretKey' },
  appId: { zh: '应用ID', en: 'App ID' },
  signName: { zh: '短信签名', en: 'signature' },
  templateId: { zh: '模板ID', en: 'template ID' },
};

/** A provider refused or could not be reached: a 400 whose message carries the provider's reason. */
export const providerFailure = (provider: BilingualText, reason: string | BilingualText): HttpError =>
  badRequest(SmsMessages.failed(provider, typeof reason === 'string' ? { zh: reason, en: reason } : reason));

/** The provider's host, or the configuration's override, joined with a path. */
export function providerUrl(config: SmsConfig, defaultBase: string, path: string): URL {
  const base = (config.endpoint.trim() || defaultBase).replace(/\/+$/, '');
  return new URL(`${base}${path}`);
}

export interface ProviderReply {
  status: number;
  /** The parsed JSON body, when the body was JSON. */
  json: unknown;
}

const MAX_REPLY_BYTES = 64 * 1024;

/**
 * Sends one request to a provider, through the outbound guard (an endpoint override may not
 * reach the server's own or private addresses unless the platform allows them). Redirects are
 * not followed (a provider API never redirects, and following one would send the signed request
 * elsewhere); a refused address, a timeout or a network error becomes the same kind of 400 as a
 * refusal.
 */
export async function callProvider(
  provider: BilingualText,
  url: URL,
  init: { headers: Record<string, string>; body: string },
  context: SendContext,
): Promise<ProviderReply> {
  let reply: { status: number; body: string | undefined };
  try {
    reply = await outboundRequest(context.outbound ?? new OutboundPolicy([]), url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      timeoutMs: context.timeoutMs,
      maxBytes: MAX_REPLY_BYTES,
    });
  } catch (e) {
    if (e instanceof OutboundError) {
      if (e.kind === 'refused') throw badRequest(e.text);
      throw providerFailure(provider, SmsMessages.unreachable('ENOTFOUND'));
    }
    if (e instanceof OutboundFailure && e.kind === 'timeout') {
      throw providerFailure(provider, SmsMessages.timeout(context.timeoutMs));
    }
    const code = e instanceof OutboundFailure ? e.code : 'ECONNRESET';
    context.log.warn({ code, provider: provider.zh, host: url.host }, 'SMS provider unreachable');
    throw providerFailure(provider, SmsMessages.unreachable(code));
  }
  let json: unknown;
  try {
    json = reply.body === undefined ? undefined : JSON.parse(reply.body);
  } catch {
    json = undefined;
  }
  return { status: reply.status, json };
}

/** A short text field of a provider's JSON reply (their code or message), never the raw body. */
export function replyText(value: unknown, max = 200): string {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** `a: b`, or whichever part the provider gave. */
export const reason = (code: string, message: string): string =>
  [code, message].filter(Boolean).join(': ') || '未知错误 (unknown error)';

export const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

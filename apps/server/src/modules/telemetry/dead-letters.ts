import { PLATFORM_TENANT, TENANT_ID, type LogRow } from './batch-rows';
import { SPARKPLUG_NAMESPACE, parseSparkplugTopic, sparkplugDeviceCode } from '../../platform/mqtt/sparkplug';
import { parseTopic, type IncomingMessage } from '../../platform/mqtt/topics';
import { errorChain, sqlState } from './retry-or-split';

/**
 * Dead letters (docs/mqtt.md "Retry or dead letter"): a message that made its batch fail on its
 * own, for a reason other than the database being unavailable, is logged in the message log
 * (`mes_mqtt_log`, listed through the `mes_mqtt_message` view) with `parsedOk = false` and an
 * error starting with {@link DEAD_LETTER}, then acknowledged. The
 * row is built so that its own insert cannot fail on the bytes that made the batch fail: every
 * text is escaped (control characters as `\uXXXX`, lone surrogates replaced) and clipped.
 */

/** The error's prefix: the MQTT message screen filters on it (`error` contains "dead letter" / "死信"). */
export const DEAD_LETTER = 'dead letter (死信)';

/** Payload text kept for a dead letter, in characters. */
const PAYLOAD_CHARS = 16_384;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Text PostgreSQL stores whatever it held: no NUL or other control character, no lone surrogate, at most `max` characters. */
export function safeText(text: string, max: number): string {
  const escaped = text
    .replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(LONE_SURROGATE, '\uFFFD');
  // Clipping may cut a surrogate pair: the cut half is replaced too.
  return escaped.length > max ? escaped.slice(0, max).replace(LONE_SURROGATE, '\uFFFD') : escaped;
}

/** Why a batch failed, for people: the SQLSTATE and PostgreSQL's own message, not a wrapper quoting the statement. */
export function failureReason(error: unknown): string {
  const state = sqlState(error);
  let message = '';
  for (const e of errorChain(error)) {
    if (!(e instanceof Error)) continue;
    const own = (e as { code?: unknown }).code;
    if (state ? own === state : !e.message.startsWith('Failed query')) {
      message = e.message;
      break;
    }
    message ||= e.message;
  }
  if (!message) message = typeof error === 'string' ? error : 'unknown error';
  return safeText(state ? `${state} ${message}` : message, 300);
}

/** The tenant and device a message's topic names, when the topic says them. */
function ownerOf(topic: string): { tenantId: string; deviceCode: string } {
  if (topic.startsWith(`${SPARKPLUG_NAMESPACE}/`)) {
    const parsed = parseSparkplugTopic(topic);
    return parsed
      ? { tenantId: parsed.group, deviceCode: sparkplugDeviceCode(parsed) }
      : { tenantId: '', deviceCode: '' };
  }
  const parsed = parseTopic(topic);
  return parsed ? { tenantId: parsed.tenantId, deviceCode: parsed.deviceCode } : { tenantId: '', deviceCode: '' };
}

/** The message-log row of a dead letter; `minimal` leaves out the payload (the last resort when even the full row fails). */
export function deadLetterRow(m: IncomingMessage, reason: string, minimal = false): LogRow {
  const owner = ownerOf(m.topic);
  const binary = m.topic.startsWith(`${SPARKPLUG_NAMESPACE}/`);
  const payload = minimal
    ? `<${m.payload.byteLength} bytes>`
    : binary
      ? `<${m.payload.byteLength} bytes, base64> ${m.payload.subarray(0, (PAYLOAD_CHARS / 4) * 3).toString('base64')}`
      : safeText(m.payload.toString('utf8'), PAYLOAD_CHARS);
  return {
    tenantId: TENANT_ID.test(owner.tenantId) ? owner.tenantId : PLATFORM_TENANT,
    topic: safeText(m.topic, 255),
    clientId: safeText(m.clientId, 128),
    qos: m.qos,
    retain: m.retain,
    payload,
    deviceCode: safeText(owner.deviceCode, 64),
    parsedOk: false,
    error: safeText(`${DEAD_LETTER}: ${reason}`, 500),
    at: m.receivedAt,
  };
}

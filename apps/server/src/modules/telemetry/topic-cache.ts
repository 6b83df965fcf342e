import { clip, printable, TENANT_ID } from './batch-rows';
import { parseTopic, type TopicKind } from '../../platform/mqtt/topics';

/** What every message on one topic needs of it: read once per topic, not once per message. */
export interface TopicReading {
  /** `mes/{tenantId}/{deviceCode}/{kind}`, or undefined for any other topic. */
  parsed: { tenantId: string; deviceCode: string; kind: TopicKind } | undefined;
  /** The device's key in the batch's look-ups (`tenant/device`). */
  key: string;
  /** The topic as the message log and acquisition data keep it (printable, clipped). */
  stored: string;
  /** The device code as the message log keeps it. */
  loggedDevice: string;
  /** The topic names a tenant id the log can keep. */
  tenantShown: boolean;
}

/** Topics are few (a device's three kinds), messages many; the bound only keeps a flood of odd topics small. */
const MAX_TOPICS = 20_000;
const readings = new Map<string, TopicReading>();

/**
 * A topic's reading, kept: splitting, checking and escaping a topic per message (its parts,
 * regular expressions, text checks) was a share of ingestion's CPU and of its garbage
 * (docs/ingest-performance.md).
 */
export function readTopic(topic: string): TopicReading {
  let reading = readings.get(topic);
  if (reading) return reading;
  const parsed = parseTopic(topic);
  reading = {
    parsed,
    key: parsed ? `${parsed.tenantId}/${parsed.deviceCode}` : '',
    stored: clip(printable(topic), 255),
    loggedDevice: clip(printable(parsed?.deviceCode ?? ''), 64),
    tenantShown: parsed !== undefined && TENANT_ID.test(parsed.tenantId),
  };
  if (readings.size >= MAX_TOPICS) readings.clear();
  readings.set(topic, reading);
  return reading;
}

import { AcquisitionProtocol, OnOffReason } from '@mes/contracts';
import { TENANT_ID, clip, errorText, parseTs, printable, type LogRow, type StoredValue } from './batch-rows';
import type { IncomingMessage } from '../../platform/mqtt/topics';
import { shownName } from '../../platform/mqtt/device-text';
import type { BatchContext } from './batch-context';
import {
  SparkplugSessions,
  birthMetrics,
  decodeSparkplug,
  isControlMetric,
  metricValue,
  parseSparkplugTopic,
  rawMetricValues,
  sparkplugDeviceCode,
  sparkplugLogText,
  type SparkplugMetric,
} from '../../platform/mqtt/sparkplug';

/**
 * The payload's seq as acquisition data keeps it (an int4): Sparkplug's is 0–255, but the protobuf
 * field is a uint64, and one beyond int4 would fail the batch's insert.
 */
const sequenceOf = (seq: number | undefined) =>
  seq !== undefined && Number.isInteger(seq) && seq >= 0 && seq <= 2_147_483_647 ? seq : null;

/**
 * One Sparkplug B message of a batch (docs/mqtt.md "Sparkplug B"): births remember their aliases
 * and go online, data is resolved by alias and stored like JSON telemetry, deaths go offline
 * with reason last-will. Answers true when the message was understood.
 */
export async function ingestSparkplug(m: IncomingMessage, log: LogRow, ctx: BatchContext): Promise<boolean> {
  const { counters, rows, sessions } = ctx;
  const topic = parseSparkplugTopic(m.topic);
  if (topic && TENANT_ID.test(topic.group)) log.tenantId = topic.group;
  const deviceCode = topic ? sparkplugDeviceCode(topic) : '';
  log.deviceCode = clip(printable(deviceCode), 64);
  if (!topic) {
    counters.malformed++;
    log.error = 'topic is not spBv1.0/{group}/{NBIRTH|NDATA|NDEATH|DBIRTH|DDATA|DDEATH}/{edge}[/{device}]';
    log.payload = `<${m.payload.byteLength} bytes>`;
    return false;
  }
  const payload = decodeSparkplug(m.payload);
  if (typeof payload === 'string') {
    counters.malformed++;
    log.error = payload;
    log.payload = `<${m.payload.byteLength} bytes>`;
    return false;
  }
  log.payload = printable(sparkplugLogText(payload));
  const { group, edge, device } = topic;
  // Births are kept for other processes only under a group that is a tenant id (the table's key).
  const keep = TENANT_ID.test(group) && edge.length <= 64 && deviceCode.length <= 64;
  const birth = (deviceId: string) => {
    if (!keep) return;
    const bdSeq = deviceId === '' ? SparkplugSessions.bdSeqOf(payload.metrics) : undefined;
    rows.births.push({
      kind: 'birth',
      birth: {
        tenantId: group,
        edgeNode: edge,
        deviceId,
        bdSeq: bdSeq !== undefined && Number.isInteger(bdSeq) && bdSeq >= 0 && bdSeq <= 2_147_483_647 ? bdSeq : null,
        metrics: birthMetrics(payload.metrics),
        bornAt: m.receivedAt,
      },
    });
  };
  const offline = (code: string) =>
    rows.addPresence({
      tenantId: group,
      deviceCode: code,
      online: false,
      at: m.receivedAt,
      reason: OnOffReason.lastWill,
    });

  switch (topic.type) {
    case 'NBIRTH':
      sessions.nodeBirth(group, edge, payload.metrics);
      birth('');
      break;
    case 'DBIRTH':
      sessions.deviceBirth(group, edge, deviceCode, payload.metrics);
      birth(deviceCode);
      break;
    case 'NDEATH': {
      const death = sessions.isCurrentDeath(group, edge, payload.metrics);
      log.parsedOk = true;
      if (!death.current) {
        // The will of an older connection, delivered after the node was born again.
        counters.staleDeath++;
        log.error = `stale NDEATH: bdSeq ${death.death} is not the current birth's ${death.birth}`;
        return true;
      }
      // The node's death is its devices' death too (Sparkplug: they are born again after NBIRTH).
      for (const born of sessions.nodeDeath(group, edge)) offline(born);
      offline(edge);
      if (keep) rows.births.push({ kind: 'node-death', tenantId: group, edgeNode: edge, at: m.receivedAt });
      return true;
    }
    case 'DDEATH':
      sessions.deviceDeath(group, edge, deviceCode);
      offline(deviceCode);
      if (keep)
        rows.births.push({
          kind: 'device-death',
          tenantId: group,
          edgeNode: edge,
          deviceId: deviceCode,
          at: m.receivedAt,
        });
      log.parsedOk = true;
      return true;
    default:
      break;
  }

  const known = await ctx.find(group, deviceCode);
  if (!known) {
    counters.unknownDevice++;
    log.error = 'unknown device';
    return false;
  }
  const collectTime = parseTs(payload.timestamp, m.receivedAt, ctx.now);
  if (typeof collectTime === 'string') {
    counters.malformed++;
    log.error = `timestamp: ${collectTime}`;
    return false;
  }
  const errors: string[] = [];
  const values: Record<string, StoredValue> = {};
  /** Metrics carrying a time of their own, other than the payload's: by that time. */
  const otherTimes = new Map<number, Record<string, StoredValue>>();
  let raw: ((type: string) => unknown)[] | undefined;
  payload.metrics.forEach((metric: SparkplugMetric, index: number) => {
    if (metric.nameFault !== undefined) {
      counters.badText++;
      errors.push(metric.nameFault);
      return;
    }
    const defined = metric.alias === undefined ? undefined : sessions.resolve(group, edge, device, metric.alias);
    const name = metric.name ?? defined?.name;
    if (name === undefined) {
      if (metric.alias === undefined) {
        counters.unknownField++;
        errors.push('a metric has neither name nor alias');
      } else {
        counters.unknownAlias++;
        errors.push(`unknown alias ${metric.alias}`);
      }
      return;
    }
    if (isControlMetric(name) || metric.isNull) return;
    let value: unknown;
    if (metric.type !== undefined) value = metricValue(metric, metric.type);
    else {
      // No datatype in a data message: the birth's type says which protobuf field holds the value.
      const type = defined?.type ?? sessions.typeOf(group, edge, device, name);
      if (type !== undefined) {
        raw ??= rawMetricValues(m.payload);
        value = raw[index]?.(type);
      }
    }
    if (value === undefined || value === null) {
      counters.wrongType++;
      errors.push(`${shownName(name)} has a Sparkplug type no model field holds`);
      return;
    }
    const ts = parseTs(metric.timestamp, collectTime, ctx.now);
    if (typeof ts === 'string') {
      counters.wrongType++;
      errors.push(`${shownName(name)}: ${ts}`);
      return;
    }
    const added = rows.addValue(known, name, value, ts, counters);
    if (typeof added === 'string') errors.push(added);
    else if (ts.getTime() === collectTime.getTime()) values[added.field] = added.value;
    else {
      const same = otherTimes.get(ts.getTime()) ?? {};
      same[added.field] = added.value;
      otherTimes.set(ts.getTime(), same);
    }
  });
  rows.acquisition.push({
    tenantId: known.tenantId,
    deviceCode: known.deviceCode,
    gateway: clip(edge, 64),
    groupId: clip(group, 64),
    collectTime,
    values,
    errors: errorText(errors),
    topic: log.topic,
    protocol: AcquisitionProtocol.sparkplug,
    seq: sequenceOf(payload.seq),
  });
  // A point's time is its row's: metrics timed otherwise get a row per time (docs/mqtt.md "Stored
  // once"), without seq or errors, so the duplicate check and the errors stay with the report's row.
  for (const [ms, timed] of otherTimes)
    rows.acquisition.push({
      tenantId: known.tenantId,
      deviceCode: known.deviceCode,
      gateway: clip(edge, 64),
      groupId: clip(group, 64),
      collectTime: new Date(ms),
      values: timed,
      errors: null,
      topic: log.topic,
      protocol: AcquisitionProtocol.sparkplug,
      seq: null,
    });
  rows.addActivity(known.tenantId, known.deviceCode, m.receivedAt);
  log.tenantId = known.tenantId;
  log.parsedOk = true;
  log.error = errorText(errors);
  return true;
}

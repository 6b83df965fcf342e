import { createRequire } from 'node:module';
import { get as sparkplugNamespace } from 'sparkplug-payload';
import type * as SparkplugProto from 'sparkplug-payload/lib/sparkplugPayloadProto';
import type { DeviceIdentity } from './device-directory';
import { shownName, textFault } from './device-text';

/** A birth's named metric, as data messages are resolved against it. */
export interface BirthMetric {
  name: string;
  alias?: number;
  type?: string;
}

export interface StoredBirth {
  tenantId: string;
  edgeNode: string;
  /** '' for the node's own birth. */
  deviceId: string;
  bdSeq: number | null;
  metrics: BirthMetric[];
  bornAt: Date;
}

/**
 * Sparkplug B (docs/mqtt.md "Sparkplug B"): topics, payload decoding and the per-edge-node
 * session state (metric aliases, bdSeq) that data and death messages are read against.
 *
 * Mapping: `spBv1.0/{group}/{type}/{edge}[/{device}]` — the group id is the tenant id; a device
 * message (DBIRTH / DDATA / DDEATH) belongs to the device whose code is the device id, and the
 * edge node is its gateway; a node message (NBIRTH / NDATA / NDEATH) belongs to the device whose
 * code is the edge node id (a gateway that is not itself a device has no data to store).
 */

export const SPARKPLUG_NAMESPACE = 'spBv1.0';
export const SPARKPLUG_TYPES = ['NBIRTH', 'NDATA', 'NDEATH', 'DBIRTH', 'DDATA', 'DDEATH'] as const;
export type SparkplugType = (typeof SPARKPLUG_TYPES)[number];

export interface SparkplugTopic {
  /** The group id: the tenant id. */
  group: string;
  type: SparkplugType;
  /** The edge node id: the gateway (and, for node messages, the device code). */
  edge: string;
  /** The device id of a device message; undefined for a node message. */
  device: string | undefined;
}

const isNodeType = (type: SparkplugType) => type.startsWith('N');
/**
 * MQTT topic levels must not be wildcards or empty in a published topic; a control character
 * would fail the device look-up's query, so such a topic is malformed.
 */
const plainLevel = (level: string | undefined): level is string =>
  level !== undefined &&
  level !== '' &&
  !level.includes('+') &&
  !level.includes('#') &&
  textFault(level, Infinity) === undefined;

/** `spBv1.0/{group}/{type}/{edge}[/{device}]` with one of the six report types, or undefined. */
export function parseSparkplugTopic(topic: string): SparkplugTopic | undefined {
  const parts = topic.split('/');
  if (parts[0] !== SPARKPLUG_NAMESPACE || parts.length < 4 || parts.length > 5) return undefined;
  const [, group, type = '', edge, device] = parts;
  if (!(SPARKPLUG_TYPES as readonly string[]).includes(type)) return undefined;
  const kind = type as SparkplugType;
  if (!plainLevel(group) || !plainLevel(edge)) return undefined;
  if (isNodeType(kind)) return parts.length === 4 ? { group, type: kind, edge, device: undefined } : undefined;
  return parts.length === 5 && plainLevel(device) ? { group, type: kind, edge, device } : undefined;
}

/** The device code a Sparkplug message reports for: the device id, or the edge node id for node messages. */
export const sparkplugDeviceCode = (topic: SparkplugTopic) => topic.device ?? topic.edge;

/**
 * Whether a device connection (embedded broker) may publish a Sparkplug topic: the group must be
 * its tenant and the reporting id its own code — the edge node id of a node message, the device
 * id of a device message (whose edge id then only names the gateway it came through).
 */
export function mayPublishSparkplug(device: DeviceIdentity, topic: string): boolean {
  const parsed = parseSparkplugTopic(topic);
  return parsed !== undefined && parsed.group === device.tenantId && sparkplugDeviceCode(parsed) === device.deviceCode;
}

/**
 * Whether a device may subscribe to a Sparkplug filter: its own commands
 * (`spBv1.0/{tenant}/NCMD/{code}`, `spBv1.0/{tenant}/DCMD/{edge}/{code}`) and a host
 * application's state (`spBv1.0/STATE/{host}`), each without wildcards that would reach others.
 */
export function maySubscribeSparkplug(device: DeviceIdentity, filter: string): boolean {
  const parts = filter.split('/');
  if (parts[0] !== SPARKPLUG_NAMESPACE) return false;
  if (parts.length === 3 && parts[1] === 'STATE') return plainLevel(parts[2]);
  if (parts[1] !== device.tenantId) return false;
  if (parts.length === 4 && parts[2] === 'NCMD') return parts[3] === device.deviceCode;
  if (parts.length === 5 && parts[2] === 'DCMD') return plainLevel(parts[3]) && parts[4] === device.deviceCode;
  return false;
}

/**
 * A metric as ingestion reads it: numbers as numbers (64-bit values above 2^53 lose precision, and
 * the model check refuses them).
 */
export interface SparkplugMetric {
  /** Undefined when not sent, or when it cannot be stored (`nameFault` says why). */
  name: string | undefined;
  /** Why the metric's name was refused (control character, lone surrogate, too long): the metric is not used. */
  nameFault?: string;
  alias: number | undefined;
  /** The Sparkplug data type name (`Int32`, `Float`, `Boolean`…); undefined when not sent. */
  type: string | undefined;
  value: unknown;
  isNull: boolean;
  timestamp: number | undefined;
  isHistorical: boolean;
}

export interface SparkplugPayload {
  timestamp: number | undefined;
  seq: number | undefined;
  metrics: SparkplugMetric[];
}

type Codec = NonNullable<ReturnType<typeof sparkplugNamespace>>;
type DecodedPayload = ReturnType<Codec['decodePayload']>;
let codec: Codec | undefined;
const spB = (): Codec => {
  codec ??= sparkplugNamespace(SPARKPLUG_NAMESPACE) ?? undefined;
  if (!codec) throw new Error('sparkplug-payload does not know spBv1.0');
  return codec;
};

/** protobufjs gives 64-bit fields as `Long` objects. */
const toNumber = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && 'toNumber' in value && typeof value.toNumber === 'function'
    ? (value.toNumber as () => number).call(value)
    : value;

const optionalNumber = (value: unknown): number | undefined => {
  const n = toNumber(value);
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** Longer than any tag path a PLC gives a metric; births keep every name in PostgreSQL. */
export const METRIC_NAME_MAX = 255;

/**
 * A metric's name, or why it cannot be used: a NUL in a name used to fail the batch's commit (the
 * births keep names in jsonb), so a bad name takes its metric out of births, aliases and data.
 */
function metricName(name: unknown): { name: string | undefined; nameFault?: string } {
  if (typeof name !== 'string' || name === '') return { name: undefined };
  const fault = textFault(name, METRIC_NAME_MAX);
  return fault ? { name: undefined, nameFault: `metric name ${shownName(name)} ${fault}` } : { name };
}

/**
 * The protobuf payload of a Sparkplug B message (via `sparkplug-payload`), or why it cannot be
 * read. Strings from the device are kept as sent; values of composite types (DataSet, Template,
 * Bytes…) are passed on for the model check to refuse.
 */
export function decodeSparkplug(payload: Buffer): SparkplugPayload | string {
  let decoded: DecodedPayload;
  try {
    decoded = spB().decodePayload(new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength));
  } catch {
    return 'payload is not a Sparkplug B protobuf';
  }
  const metrics = (decoded.metrics ?? []).map((m): SparkplugMetric => ({
    ...metricName(m.name),
    alias: optionalNumber(m.alias),
    // decodePayload names the type from `datatype`; an absent datatype (allowed in data
    // messages) leaves it undefined and the value null — the birth's type is used then.
    type: typeof m.type === 'string' ? m.type : undefined,
    value: toNumber(m.value),
    isNull: m.isNull === true,
    timestamp: optionalNumber(m.timestamp),
    isHistorical: m.isHistorical === true,
  }));
  return { timestamp: optionalNumber(decoded.timestamp), seq: optionalNumber(decoded.seq), metrics };
}

let proto: typeof SparkplugProto | undefined;

/** The metrics a data message sent without `datatype`: values read by the birth's type from the raw protobuf. */
export function rawMetricValues(payload: Buffer): ((type: string) => unknown)[] {
  // The generated protobuf module of the same package (CommonJS, one object export):
  // decodePayload cannot read a value whose type it is not told.
  proto ??= createRequire(import.meta.url)('sparkplug-payload/lib/sparkplugPayloadProto.js') as typeof SparkplugProto;
  const raw = proto.org.eclipse.tahu.protobuf.Payload.decode(payload);
  return raw.metrics.map((m) => (type: string) => {
    switch (type) {
      case 'Int8':
      case 'Int16':
      case 'Int32':
        return (m.intValue ?? 0) | 0;
      case 'UInt8':
      case 'UInt16':
        return m.intValue;
      case 'Int64':
      case 'UInt32':
      case 'UInt64':
      case 'DateTime':
        return toNumber(m.longValue);
      case 'Float':
        return m.floatValue;
      case 'Double':
        return m.doubleValue;
      case 'Boolean':
        return m.booleanValue;
      case 'String':
      case 'Text':
      case 'UUID':
        return m.stringValue;
      default:
        return null;
    }
  });
}

/** Metric names Sparkplug reserves for session control: never model fields. */
export const isControlMetric = (name: string) =>
  name === 'bdSeq' ||
  name.startsWith('Node Control/') ||
  name.startsWith('Device Control/') ||
  name.startsWith('Properties/');

/** A metric's value as a model field takes it: integers, floats, booleans and text; others refused. */
export function metricValue(metric: SparkplugMetric, type: string | undefined): unknown {
  switch (type) {
    case 'Int8':
    case 'Int16':
    case 'Int32':
    case 'Int64':
    case 'UInt8':
    case 'UInt16':
    case 'UInt32':
    case 'UInt64':
    case 'Float':
    case 'Double':
    case 'DateTime':
    case 'Boolean':
    case 'String':
    case 'Text':
    case 'UUID':
      return metric.value;
    default:
      // DataSet, Template, Bytes, File, property sets: no model field holds them.
      return undefined;
  }
}

/** What a birth defined for an alias. */
export interface AliasDefinition {
  name: string;
  type: string | undefined;
}

/** What one birth defined: metric aliases and every metric's type by name. */
interface Birth {
  aliases: Map<number, AliasDefinition>;
  types: Map<string, string | undefined>;
}

interface NodeSession extends Birth {
  bdSeq: number | undefined;
  /** Device ids born under this node since its birth (an NDEATH takes them offline too). */
  devices: Set<string>;
}

const nodeKey = (group: string, edge: string) => `${group}/${edge}`;

/**
 * What this process remembers of each edge node's and device's current birth: metric aliases
 * (data messages may carry only the alias) and the node's bdSeq (an NDEATH with another bdSeq
 * belongs to an older session). Before each batch the stored births of its edge nodes replace
 * this memory (`replaceNode`, sparkplug-births.ts); within the batch its births and deaths update
 * it in order (docs/mqtt.md "Sparkplug B").
 */
export class SparkplugSessions {
  private readonly nodes = new Map<string, NodeSession>();
  private readonly devices = new Map<string, Birth>();
  /** Bound on remembered nodes and devices; the oldest birth is forgotten first. */
  constructor(private readonly maxEntries = 100_000) {}

  private static birthOf(metrics: readonly (SparkplugMetric | BirthMetric)[]): Birth {
    const birth: Birth = { aliases: new Map(), types: new Map() };
    for (const m of metrics) {
      if (!m.name) continue;
      birth.types.set(m.name, m.type);
      if (m.alias !== undefined) birth.aliases.set(m.alias, { name: m.name, type: m.type });
    }
    return birth;
  }

  /**
   * Takes an edge node's births as PostgreSQL holds them (before a batch): the node's and its
   * devices' births another process, or this one before a restart, received. No stored birth
   * forgets the node.
   */
  replaceNode(group: string, edge: string, stored: readonly StoredBirth[]): void {
    const key = nodeKey(group, edge);
    for (const device of this.nodes.get(key)?.devices ?? []) this.devices.delete(`${key}/${device}`);
    this.nodes.delete(key);
    const node = stored.find((b) => b.deviceId === '');
    if (node)
      this.nodes.set(key, {
        ...SparkplugSessions.birthOf(node.metrics),
        bdSeq: node.bdSeq ?? undefined,
        devices: new Set(),
      });
    for (const b of stored) {
      if (b.deviceId === '') continue;
      this.devices.set(`${key}/${b.deviceId}`, SparkplugSessions.birthOf(b.metrics));
      this.nodeOf(key).devices.add(b.deviceId);
    }
    this.bound(this.nodes);
    this.bound(this.devices);
  }

  /**
   * A node's session; a device born under a node this process knows no birth of gets an empty
   * one, so that the node's death still ends the device.
   */
  private nodeOf(key: string): NodeSession {
    let node = this.nodes.get(key);
    if (!node) {
      node = { aliases: new Map(), types: new Map(), bdSeq: undefined, devices: new Set() };
      this.nodes.set(key, node);
      this.bound(this.nodes);
    }
    return node;
  }

  /** The bdSeq of a node birth's metrics, when it has one. */
  static bdSeqOf(metrics: readonly SparkplugMetric[]): number | undefined {
    const bdSeq = metrics.find((m) => m.name === 'bdSeq');
    return bdSeq ? optionalNumber(bdSeq.value) : undefined;
  }

  private bound<V>(map: Map<string, V>) {
    if (map.size > this.maxEntries) map.delete(map.keys().next().value as string);
  }

  nodeBirth(group: string, edge: string, metrics: readonly SparkplugMetric[]): void {
    const key = nodeKey(group, edge);
    const previous = this.nodes.get(key);
    // A new node session: its devices must be born again.
    for (const device of previous?.devices ?? []) this.devices.delete(`${key}/${device}`);
    this.nodes.delete(key);
    this.nodes.set(key, {
      ...SparkplugSessions.birthOf(metrics),
      bdSeq: SparkplugSessions.bdSeqOf(metrics),
      devices: new Set(),
    });
    this.bound(this.nodes);
  }

  deviceBirth(group: string, edge: string, device: string, metrics: readonly SparkplugMetric[]): void {
    const key = `${nodeKey(group, edge)}/${device}`;
    this.devices.delete(key);
    this.devices.set(key, SparkplugSessions.birthOf(metrics));
    this.bound(this.devices);
    this.nodeOf(nodeKey(group, edge)).devices.add(device);
  }

  /**
   * Whether an NDEATH ends the current session: its bdSeq must match the birth's. Without a
   * remembered birth (a restarted process) or without bdSeq on either side it is taken as current.
   */
  isCurrentDeath(
    group: string,
    edge: string,
    metrics: readonly SparkplugMetric[],
  ): { current: boolean; birth?: number; death?: number } {
    const session = this.nodes.get(nodeKey(group, edge));
    const death = SparkplugSessions.bdSeqOf(metrics);
    if (!session || session.bdSeq === undefined || death === undefined) return { current: true };
    return { current: session.bdSeq === death, birth: session.bdSeq, death };
  }

  /** Ends a node session; answers the devices born under it, which go offline with it. */
  nodeDeath(group: string, edge: string): string[] {
    const key = nodeKey(group, edge);
    const session = this.nodes.get(key);
    this.nodes.delete(key);
    const devices = [...(session?.devices ?? [])];
    for (const device of devices) this.devices.delete(`${key}/${device}`);
    return devices;
  }

  deviceDeath(group: string, edge: string, device: string): void {
    this.devices.delete(`${nodeKey(group, edge)}/${device}`);
    this.nodes.get(nodeKey(group, edge))?.devices.delete(device);
  }

  /** An alias of a data message: the device's birth first, then its node's (aliases are unique per node). */
  resolve(group: string, edge: string, device: string | undefined, alias: number): AliasDefinition | undefined {
    const key = nodeKey(group, edge);
    const own = device === undefined ? undefined : this.devices.get(`${key}/${device}`)?.aliases.get(alias);
    return own ?? this.nodes.get(key)?.aliases.get(alias);
  }

  /** The type a birth gave a metric name (data messages may leave `datatype` out). */
  typeOf(group: string, edge: string, device: string | undefined, name: string): string | undefined {
    const key = nodeKey(group, edge);
    const own = device === undefined ? undefined : this.devices.get(`${key}/${device}`)?.types.get(name);
    return own ?? this.nodes.get(key)?.types.get(name);
  }
}

/** A birth's named metrics as they are stored (aliases and types). */
export const birthMetrics = (metrics: readonly SparkplugMetric[]): BirthMetric[] =>
  metrics.flatMap((m) =>
    m.name === undefined
      ? []
      : [
          {
            name: m.name,
            ...(m.alias !== undefined ? { alias: m.alias } : {}),
            ...(m.type !== undefined ? { type: m.type } : {}),
          },
        ],
  );

/** A JSON text of a decoded payload for the message log (the protobuf itself is not readable text). */
export function sparkplugLogText(payload: SparkplugPayload): string {
  return JSON.stringify(payload, (_key, value: unknown) =>
    value instanceof Uint8Array ? `<${value.byteLength} bytes>` : value,
  );
}

/** The external broker's filter for Sparkplug reports: node (4 levels) and device (5 levels) topics. */
export const SPARKPLUG_TOPIC = `${SPARKPLUG_NAMESPACE}/+/+/+/#`;

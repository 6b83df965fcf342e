import type pg from 'pg';
import type { OnOffReason } from '@mes/contracts';
import { textFault } from './device-text';

export type OnOffReasonValue = (typeof OnOffReason)[keyof typeof OnOffReason];

/**
 * The transport's view of device messages: the topic scheme devices publish on and what a
 * broker hands on. What a message means (model, storage, warnings) is the telemetry module's.
 */

export type TopicKind = 'telemetry' | 'status' | 'cycle';
export const TOPIC_KINDS: readonly TopicKind[] = ['telemetry', 'status', 'cycle'];

/** `mes/{tenantId}/{deviceCode}/{kind}`, or undefined for any other topic. */
export function parseTopic(topic: string): { tenantId: string; deviceCode: string; kind: TopicKind } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'mes') return undefined;
  const [, tenantId = '', deviceCode = '', kind = ''] = parts;
  if (!tenantId || !deviceCode || !(TOPIC_KINDS as readonly string[]).includes(kind)) return undefined;
  // A NUL would fail the device look-up's query: the topic is malformed, not the database down.
  if (textFault(tenantId, Infinity) || textFault(deviceCode, Infinity)) return undefined;
  return { tenantId, deviceCode, kind: kind as TopicKind };
}

export interface IncomingMessage {
  topic: string;
  payload: Buffer;
  qos: number;
  retain: boolean;
  /** The publishing client, where the broker says (the embedded one); '' otherwise. */
  clientId: string;
  receivedAt: Date;
  /**
   * External subscriber: the delivery's packet id, digest and ledger epoch, for the batch's
   * delivery-ledger row (delivery-ledger.ts). On the message rather than in a WeakMap beside it:
   * a weak entry per message was a cost of its own to the garbage collector.
   */
  delivery?: Delivery;
}

/**
 * How the external subscriber received a QoS-1 message: its packet id, digest and ledger epoch
 * (the delivery-ledger row), and the subscriber session its PUBACK belongs to. The message's ack
 * reads it, so that one function acknowledges every message (no closure kept per queued message).
 */
export interface Delivery {
  packetId: number;
  hash: number;
  epoch: number;
  session: number;
  /** Acknowledged already: a second call sends nothing (its packet id may be another message's by then). */
  acked: boolean;
}

/** A connection event the embedded broker reports (connect, disconnect). */
export interface PresenceEvent {
  tenantId: string;
  deviceCode: string;
  /** true: came online or showed activity; false: went offline. */
  online: boolean;
  at: Date;
  reason: OnOffReasonValue;
}

/**
 * Where the transport hands messages: the telemetry module's ingestion. `ack` releases the
 * message's PUBACK and must be called only once the message is stored, with that message.
 */
export interface MessageSink {
  push(message: IncomingMessage, ack: (message: IncomingMessage) => void): void;
  presence(event: PresenceEvent): void;
  /** Messages waiting to be stored. */
  readonly queued: number;
  /** Stores what is queued (acknowledging it), then takes no more. */
  stop(): Promise<void>;
}

/**
 * What the transport gives the sink it makes: flow control of the external subscriber's socket,
 * and the delivery ledger's write, which must run inside the transaction that stores the batch.
 */
export interface SinkHooks {
  flow: { pause(): void; resume(): void };
  inTransaction?(client: pg.PoolClient, messages: readonly IncomingMessage[]): Promise<void>;
}

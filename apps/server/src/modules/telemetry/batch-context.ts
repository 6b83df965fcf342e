import type { SparkplugSessions } from '../../platform/mqtt/sparkplug';
import type { BatchRows } from './batch-rows';
import type { KnownDevice } from './device-directory';

export interface IngestionCounters {
  received: number;
  stored: number;
  /** Payload or topic not understood (not JSON, no values, bad time). */
  malformed: number;
  unknownDevice: number;
  unknownField: number;
  wrongType: number;
  /** Names and texts refused: control characters, lone surrogates, too long (docs/mqtt.md). */
  badText: number;
  /** Points further ahead of the server's clock than `MQTT_MAX_CLOCK_SKEW_SECONDS` (not stored). */
  aheadOfClock: number;
  /** Numbers the field cannot keep exactly (not stored). */
  inexact: number;
  /** Sparkplug metrics sent by an alias no remembered birth defines (not stored). */
  unknownAlias: number;
  /** Sparkplug NDEATHs whose bdSeq is not the current birth's (ignored). */
  staleDeath: number;
  batches: number;
  /** Attempts to store a batch that failed (each retry, each half of a split counts). */
  failedBatches: number;
  /** Messages set aside as dead letters: they failed alone, the database being up (docs/mqtt.md). */
  deadLetters: number;
  /** Reports a device sent again with the same `ts` and `seq`: logged, not stored again. */
  duplicateReports: number;
  /** The largest number of messages ever waiting at once (the queue's bound holds it below `maxQueue`). */
  maxQueued: number;
  /** How often reading from the broker was paused because the queue was full. */
  pauses: number;
}

/** Shared by the JSON and Sparkplug readers of one batch. */
export interface BatchContext {
  rows: BatchRows;
  counters: IngestionCounters;
  sessions: SparkplugSessions;
  now: number;
  find(tenantId: string, deviceCode: string): Promise<KnownDevice | undefined>;
  /** What `find` answered in this batch's reading so far, by `tenant/device`: read without awaiting it again. */
  known?: Map<string, KnownDevice | undefined>;
}

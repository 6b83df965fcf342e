import type pg from 'pg';

/**
 * Recognises a message the broker delivers again (after a reconnect or a crash of this process)
 * whose batch was already committed, so that it is acknowledged without being stored twice
 * (docs/mqtt.md, "External broker").
 *
 * Why a redelivery can be a duplicate at all: a QoS-1 message is acknowledged after its batch
 * committed. The broker redelivers (DUP set) every message of the session it holds no PUBACK for.
 * Most of those were never committed (still queued or in the batch being written): storing them
 * then is right. Only a message whose commit succeeded but whose PUBACK never reached the broker —
 * the connection dropped, or the process died, between the COMMIT and the write of the PUBACKs —
 * would be stored twice.
 *
 * How it is recognised: packet ids belong to the session, and the broker reuses an id only after
 * our PUBACK freed it (Mosquitto and EMQX count them up through all 65,535). So a redelivery with
 * id p and the same topic and payload as a message of id p that we committed among the last
 * {@link RECENT} deliveries is that same message. The recent committed ids live in memory (a
 * reconnect) and, per batch, in one row of `mes_mqtt_delivery` written in the batch's own
 * transaction (a crash: the restarted process loads them before it subscribes). A message of the
 * same id still queued here is the same delivery too: its pending ack answers both.
 *
 * Cost: a 32-bit FNV-1a digest of topic + payload per message, and one row upserted per batch (not
 * per message; measured in docs/ingest-performance.md). A per-message idempotency key with a
 * unique index would have cost an index entry per message on the partitioned message log, whose
 * unique keys must include the partition time the redelivery does not know.
 */

/** Committed deliveries remembered; far below 65,535 minus the inflight window, so ids cannot wrap inside it. */
export const RECENT = 16_384;

export function digest(topic: string, payload: Buffer): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < topic.length; i++) {
    h ^= topic.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= 0xff;
  h = Math.imul(h, 0x01000193);
  for (let i = 0; i < payload.length; i++) {
    h ^= payload[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** `{1,2,3}`: an int[] literal of integers (no quoting needed). */
function intArray<T>(items: readonly T[], value: (item: T) => number): string {
  let text = '{';
  for (let i = 0; i < items.length; i++) text += (i ? ',' : '') + String(value(items[i]!) | 0);
  return `${text}}`;
}

export type Delivery = 'new' | 'pending' | 'committed';

/** Packet ids are 16-bit: per-id tables instead of maps. */
const PACKET_IDS = 65_536;

export class DeliveryLedger {
  /**
   * Delivered, not yet committed: the digest per packet id, and whether one is pending. Tables
   * indexed by packet id rather than maps: a map entry made and deleted per message was the
   * ingester's largest single cost (docs/ingest-performance.md).
   */
  private readonly pendingHash = new Int32Array(PACKET_IDS);
  private readonly pendingSet = new Uint8Array(PACKET_IDS);
  /**
   * Committed (acked, or about to be): the digest per packet id and the number of the commit that
   * remembered it (0: none). The last {@link RECENT} commits are a ring of (packet id, number); the
   * commit that falls out of the ring forgets its id unless the id was committed again since.
   * (A Map used as that queue, its oldest key deleted per commit, cost time growing with the
   * deleted entries V8 skips at its head.)
   */
  private readonly committedHash = new Int32Array(PACKET_IDS);
  private readonly committedAt = new Float64Array(PACKET_IDS);
  private readonly ringIds = new Uint16Array(RECENT);
  private readonly ringAt = new Float64Array(RECENT);
  private commits = 0;
  private slot = 0;
  private readonly slots: number;
  /** Bumped by {@link reset}: a commit of an earlier session's delivery is ignored. */
  epoch = 0;

  /**
   * @param session the MQTT client id whose session this is
   * @param batchSize ingestion's batch size: the rows kept per session cover {@link RECENT} messages
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly session: string,
    batchSize: number,
  ) {
    this.slots = Math.max(2, Math.floor(RECENT / Math.max(1, batchSize)));
  }

  /** Loads what the last run of this session committed (table `mes_mqtt_delivery`, platform/db/schema). */
  async load(): Promise<void> {
    const { rows } = await this.pool.query<{ packet_ids: number[]; digests: number[] }>(
      'select packet_ids, digests from mes_mqtt_delivery where session = $1 order by committed_at, slot',
      [this.session],
    );
    for (const row of rows) row.packet_ids.forEach((id, i) => this.remember(id, row.digests[i] ?? 0));
  }

  /** The broker started a new session: no earlier packet id means anything any more. */
  reset(): void {
    this.epoch++;
    this.pendingSet.fill(0);
    this.committedAt.fill(0);
  }

  /** Classifies a delivery; a `new` one is pending until {@link commit}. */
  accept(packetId: number, hash: number, dup: boolean): Delivery {
    if (dup) {
      if (this.pendingSet[packetId] === 1 && this.pendingHash[packetId] === hash) return 'pending';
      if (this.committedAt[packetId] !== 0 && this.committedHash[packetId] === hash) return 'committed';
    }
    // A first delivery of this id: the broker freed it, so what we remember of it is another message.
    this.committedAt[packetId] = 0;
    this.pendingSet[packetId] = 1;
    this.pendingHash[packetId] = hash;
    return 'new';
  }

  /** The delivery's batch committed (called just before its PUBACK). */
  commit(packetId: number, hash: number, epoch: number): void {
    if (epoch !== this.epoch) return;
    if (this.pendingSet[packetId] === 1 && this.pendingHash[packetId] === hash) this.pendingSet[packetId] = 0;
    this.remember(packetId, hash);
  }

  private remember(packetId: number, hash: number): void {
    const at = ++this.commits;
    const place = at % RECENT;
    const oldest = this.ringIds[place]!;
    if (this.ringAt[place] !== 0 && this.committedAt[oldest] === this.ringAt[place]) this.committedAt[oldest] = 0;
    this.ringIds[place] = packetId;
    this.ringAt[place] = at;
    this.committedHash[packetId] = hash;
    this.committedAt[packetId] = at;
  }

  /** Inside a batch's transaction: the batch's deliveries, one row (slots rotate). */
  async record(client: pg.PoolClient, deliveries: { packetId: number; hash: number }[]): Promise<void> {
    if (!deliveries.length) return;
    const slot = this.slot;
    this.slot = (this.slot + 1) % this.slots;
    await client.query(
      `insert into mes_mqtt_delivery (session, slot, packet_ids, digests, committed_at)
       values ($1, $2, $3::int[], $4::int[], clock_timestamp())
       on conflict (session, slot) do update
         set packet_ids = excluded.packet_ids, digests = excluded.digests, committed_at = excluded.committed_at`,
      // Integers as array literals written here: pg's array serialisation escapes every element.
      [this.session, slot, intArray(deliveries, (d) => d.packetId), intArray(deliveries, (d) => d.hash)],
    );
  }
}

import type pg from 'pg';

/**
 * Recognises a QoS-1 message a device publishes again to the embedded broker after its batch was
 * committed but its PUBACK never reached the device (the server stopped or crashed between the
 * COMMIT and the write of the PUBACKs, or the connection dropped): it is acknowledged without
 * being stored twice (docs/mqtt.md, "Exactly once through the embedded broker").
 *
 * Why not the DUP flag alone: MQTT clients resend an unacknowledged message after a reconnect
 * with the same packet id, but not all set DUP (mqtt.js does not). So a message is taken as a
 * resend when its client id, packet id and digest (topic + payload) match a committed message
 * whose PUBACK was not written on this same connection — the one case in which the device
 * cannot have had it. On the connection that carried the PUBACK, the same id again is a new
 * message (the device reuses an id only after its PUBACK).
 *
 * Where: per device (client id), the packet ids and digests of its last {@link KEPT} committed
 * messages, in memory and in one row of `mes_mqtt_publisher` per device of a batch, upserted in
 * the batch's own transaction (one statement per batch). A connection reads its device's row when
 * it signs in, so a device that comes back to this process after a restart, or to another
 * process after a crash, finds what was committed for it. Messages still queued here (not yet
 * committed) with the same id and digest are the same delivery: their one commit acknowledges both.
 */

/** Committed messages remembered per device: far more than a device's inflight window. */
export const KEPT = 256;
/** Rows of devices that published nothing for this long are deleted at start. */
const STALE = '7 days';

export interface Publication {
  clientId: string;
  packetId: number;
  hash: number;
  /** The connection it arrived on (a number per connection). */
  connection: number;
}

export type Verdict = { kind: 'new' } | { kind: 'committed' } | { kind: 'pending'; wait: Promise<void> };

interface Committed {
  hash: number;
  connection: number;
}

const key = (clientId: string, packetId: number) => `${clientId}\u0000${packetId}`;

export class PublishLedger {
  /** Committed messages of the devices connected here: client id → packet id → digest and connection. */
  private readonly committed = new Map<string, Map<number, Committed>>();
  /** Accepted, not yet committed: client id + packet id → digest, and who waits for the commit. */
  private readonly pending = new Map<string, { hash: number; waiters: (() => void)[] }>();

  constructor(private readonly pool: pg.Pool) {}

  /** Deletes the rows of devices long silent (any process may; cheap on the primary key's table). */
  async prune(): Promise<void> {
    await this.pool.query(`delete from mes_mqtt_publisher where committed_at < now() - interval '${STALE}'`);
  }

  /** Before a device's connection is accepted: what was committed for it (any process). */
  async load(clientId: string): Promise<void> {
    const { rows } = await this.pool.query<{ packet_ids: number[]; digests: number[] }>(
      'select packet_ids, digests from mes_mqtt_publisher where client_id = $1',
      [clientId],
    );
    const known = new Map<number, Committed>();
    const row = rows[0];
    // Newest first in the row: the oldest go in first, so the map's order stays oldest first.
    if (row)
      for (let i = row.packet_ids.length - 1; i >= 0; i--)
        known.set(row.packet_ids[i]!, { hash: row.digests[i] ?? 0, connection: 0 });
    // What this process committed since (a batch of the old connection) is newer than the row read.
    const mine = this.committed.get(clientId);
    if (mine)
      for (const [id, entry] of mine) {
        known.delete(id);
        known.set(id, entry);
      }
    this.committed.set(clientId, known);
  }

  /** The device has no connection here any more: its entries are read again at its next sign-in. */
  forget(clientId: string): void {
    this.committed.delete(clientId);
  }

  accept(p: Publication, dup: boolean): Verdict {
    const id = key(p.clientId, p.packetId);
    const pending = this.pending.get(id);
    if (pending && pending.hash === p.hash)
      return { kind: 'pending', wait: new Promise((resolve) => pending.waiters.push(resolve)) };
    const entry = this.committed.get(p.clientId)?.get(p.packetId);
    if (entry && entry.hash === p.hash && (dup || entry.connection !== p.connection)) return { kind: 'committed' };
    this.pending.set(id, { hash: p.hash, waiters: [] });
    return { kind: 'new' };
  }

  /** The publication's batch committed (just before its PUBACK). */
  commit(p: Publication): void {
    const id = key(p.clientId, p.packetId);
    const pending = this.pending.get(id);
    if (pending && pending.hash === p.hash) {
      this.pending.delete(id);
      for (const wake of pending.waiters) wake();
    }
    const mine = this.committed.get(p.clientId);
    if (!mine) return;
    mine.delete(p.packetId);
    mine.set(p.packetId, { hash: p.hash, connection: p.connection });
    if (mine.size > KEPT) mine.delete(mine.keys().next().value as number);
  }

  /** The batch failed while stopping, or the message was dropped: it is no longer pending. */
  abandon(p: Publication): void {
    const id = key(p.clientId, p.packetId);
    if (this.pending.get(id)?.hash === p.hash) this.pending.delete(id);
  }

  /**
   * Inside a batch's transaction: one upsert for all its devices, each row keeping the newest
   * {@link KEPT} packet ids and digests (newest first). Devices in key order, so two processes'
   * batches lock shared rows in the same order.
   */
  async record(client: pg.PoolClient, publications: readonly Publication[]): Promise<void> {
    if (!publications.length) return;
    const byClient = new Map<string, Publication[]>();
    for (const p of publications) {
      const list = byClient.get(p.clientId);
      if (list) list.push(p);
      else byClient.set(p.clientId, [p]);
    }
    const clients = [...byClient.keys()].sort();
    const ids: string[] = [];
    const digests: string[] = [];
    for (const c of clients) {
      const list = byClient.get(c)!.slice(-KEPT).reverse();
      ids.push(list.map((p) => p.packetId).join(','));
      digests.push(list.map((p) => p.hash).join(','));
    }
    await client.query(
      `insert into mes_mqtt_publisher as l (client_id, packet_ids, digests, committed_at)
       select c, string_to_array(p, ',')::int[], string_to_array(d, ',')::int[], clock_timestamp()
         from unnest($1::text[], $2::text[], $3::text[]) as u(c, p, d)
       on conflict (client_id) do update
         set packet_ids = (excluded.packet_ids || l.packet_ids)[1:${KEPT}],
             digests = (excluded.digests || l.digests)[1:${KEPT}],
             committed_at = excluded.committed_at`,
      [clients, ids, digests],
    );
  }
}

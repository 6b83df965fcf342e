import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { nextIdBlockValue } from '../../platform/db/ids';
import { valuesJson, type AcquisitionRow } from './batch-rows';

/**
 * A batch's acquisition rows by binary COPY (PostgreSQL's "binary" format: a header, then per
 * row its field count and each field as its length and its bytes, big-endian). Why binary rather
 * than text: the text format had every row's two times written as ISO text (`toISOString`) and
 * parsed back by PostgreSQL, its id made decimal text, each field tested for characters to escape,
 * and the whole batch built as one string that was then encoded again as UTF-8; here the times are
 * microsecond integers, the id an int8, and every field is written once into one buffer
 * (docs/ingest-performance.md).
 */

export const ACQUISITION_COPY =
  'copy mes_acqdata (id, tenant_id, device_code, gateway, group_id, collect_time, data_values, errors, topic, protocol, seq, client_id, qos, retain, receive_time) from stdin with (format binary)';

const FIELDS = 15;
/** `PGCOPY\n\377\r\n\0`, flags 0, header extension 0. */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);
/** PostgreSQL's epoch (2000-01-01 UTC) in Unix milliseconds: timestamptz is microseconds since then. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 4_294_967_296;
/** jsonb's binary form: a version byte, then the JSON text. */
const JSONB_VERSION = 1;

/** A growing buffer of one COPY's rows. */
class CopyBuffer {
  buf: Buffer;
  at = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Room for `bytes` more. */
  room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  int16(value: number): void {
    this.room(2);
    this.at = this.buf.writeInt16BE(value, this.at);
  }

  int32(value: number): void {
    this.room(4);
    this.at = this.buf.writeInt32BE(value, this.at);
  }

  null(): void {
    this.int32(-1);
  }

  int4(value: number): void {
    this.room(8);
    this.at = this.buf.writeInt32BE(4, this.at);
    this.at = this.buf.writeInt32BE(value, this.at);
  }

  int8(value: bigint): void {
    this.room(12);
    this.at = this.buf.writeInt32BE(8, this.at);
    this.at = this.buf.writeBigInt64BE(value, this.at);
  }

  bool(value: boolean): void {
    this.room(5);
    this.at = this.buf.writeInt32BE(1, this.at);
    this.buf[this.at++] = value ? 1 : 0;
  }

  /** A time as timestamptz: microseconds since 2000-01-01 UTC, exact for any millisecond time as a double. */
  timestamptz(time: Date): void {
    const micros = (time.getTime() - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / TWO_32);
    this.room(12);
    this.at = this.buf.writeInt32BE(8, this.at);
    this.at = this.buf.writeInt32BE(high, this.at);
    this.at = this.buf.writeUInt32BE(micros - high * TWO_32, this.at);
  }

  /** Text as UTF-8 (varchar's binary form), optionally after a leading byte (jsonb's version). */
  text(value: string, lead?: number): void {
    const extra = lead === undefined ? 0 : 1;
    this.room(4 + extra + value.length * 3);
    const start = this.at + 4;
    let at = start;
    if (lead !== undefined) this.buf[at++] = lead;
    at += this.buf.write(value, at);
    this.buf.writeInt32BE(at - start, this.at);
    this.at = at;
  }

  nullableText(value: string | null | undefined): void {
    if (value == null) this.null();
    else this.text(value);
  }
}

/** The acquisition rows as one binary COPY body (header, rows, trailer). */
export function acquisitionCopyData(rows: readonly AcquisitionRow[]): Buffer {
  const out = new CopyBuffer(SIGNATURE.length + 8 + rows.length * 320 + 2);
  out.room(SIGNATURE.length);
  out.at += SIGNATURE.copy(out.buf, out.at);
  out.int32(0);
  out.int32(0);
  for (const r of rows) {
    let count = 0;
    for (const _field in r.values) count++;
    const m = r.message;
    out.int16(FIELDS);
    out.int8(nextIdBlockValue(count));
    out.text(r.tenantId);
    out.text(r.deviceCode);
    out.text(r.gateway);
    out.text(r.groupId);
    out.timestamptz(r.collectTime);
    out.text(valuesJson(r.values), JSONB_VERSION);
    out.nullableText(r.errors);
    out.text(r.topic);
    out.text(r.protocol);
    if (r.seq === null) out.null();
    else out.int4(r.seq);
    if (m) {
      out.text(m.clientId);
      out.int4(m.qos);
      out.bool(m.retain);
      out.timestamptz(m.receivedAt);
    } else for (let i = 0; i < 4; i++) out.null();
  }
  out.int16(-1);
  return out.buf.subarray(0, out.at);
}

/** Inside the batch's transaction: its acquisition rows by COPY (one round trip, no parameters to serialise). */
export async function copyAcquisition(client: pg.PoolClient, rows: readonly AcquisitionRow[]): Promise<void> {
  if (!rows.length) return;
  await pipeline(Readable.from([acquisitionCopyData(rows)]), client.query(copyFrom(ACQUISITION_COPY)));
}

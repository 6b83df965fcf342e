import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { nextIdBlockValue } from '../../platform/db/ids';
import type { AcquisitionRow, StoredValue } from './batch-rows';

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

/** Field names as the UTF-8 of their JSON string, kept: a report's names are its model's, the same in every report. */
const quotedNames = new Map<string, Buffer>();
const QUOTED_NAMES_MAX = 10_000;

function quotedName(field: string): Buffer {
  let quoted = quotedNames.get(field);
  if (quoted === undefined) {
    if (quotedNames.size >= QUOTED_NAMES_MAX) quotedNames.clear();
    quotedNames.set(field, (quoted = Buffer.from(JSON.stringify(field))));
  }
  return quoted;
}

const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN = 0x7b;
const CLOSE = 0x7d;

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

  /**
   * `value` as UTF-8 at `start` (room for `value.length * 3` made), answering where it ends. ASCII,
   * what codes, names and decimal texts are, is copied by this loop: for texts this short a native
   * UTF-8 write per field cost more than the bytes (docs/ingest-performance.md).
   */
  private put(value: string, start: number): number {
    const buf = this.buf;
    let at = start;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code >= 0x80) return start + buf.write(value, start);
      buf[at++] = code;
    }
    return at;
  }

  /** Text as UTF-8 (varchar's binary form). */
  text(value: string): void {
    this.room(4 + value.length * 3);
    const start = this.at + 4;
    const at = this.put(value, start);
    this.buf.writeInt32BE(at - start, this.at);
    this.at = at;
  }

  /**
   * A report's values as jsonb: the text `valuesJson` (batch-rows.ts) makes, written here byte by
   * byte instead (numbers are ASCII decimal text, names' JSON kept as bytes): no string built per
   * row to be encoded again, which was garbage of its own (docs/ingest-performance.md).
   */
  jsonb(values: Readonly<Record<string, StoredValue>>): void {
    this.room(6);
    const lengthAt = this.at;
    this.at += 4;
    this.buf[this.at++] = JSONB_VERSION;
    this.buf[this.at++] = OPEN;
    let first = true;
    for (const field in values) {
      const value = values[field]!;
      const name = quotedName(field);
      const text = typeof value === 'string' ? value : JSON.stringify(value.text);
      this.room(2 + name.length + text.length * 3);
      const buf = this.buf;
      let at = this.at;
      if (!first) buf[at++] = COMMA;
      first = false;
      for (let i = 0; i < name.length; i++) buf[at++] = name[i]!;
      buf[at++] = COLON;
      this.at = this.put(text, at);
    }
    this.room(1);
    this.buf[this.at++] = CLOSE;
    this.buf.writeInt32BE(this.at - lengthAt - 4, lengthAt);
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
    out.jsonb(r.values);
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

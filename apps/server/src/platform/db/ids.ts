import { randomInt } from 'node:crypto';
import { isIdText } from '@mes/contracts';

/**
 * Snowflake-style 64-bit ids (41 bits of milliseconds since 2020-01-01, 10 bits of worker,
 * 12 bits of sequence), sortable by creation time like BladeX ids. The worker number is random
 * per process, so several API processes rarely collide; the primary key would refuse a clash.
 */
const EPOCH = 1_577_836_800_000n;
const worker = BigInt(randomInt(1024));
let lastMs = 0n;
/**
 * The fixed ids the first releases seeded (1000000000000000001 …) all read as this one
 * millisecond (2027-07-22 11:22:59.101 UTC): never issue ids in it, or one could equal a seeded row's.
 */
export const SEEDED_ID_MS = 1_000_000_000_000_000_000n >> 22n;
let sequence = 0n;

export function nextId(): string {
  return nextIdValue().toString();
}

function nextIdValue(): bigint {
  let now = BigInt(Date.now());
  if (now < lastMs) now = lastMs; // clock moved back: stay monotonic
  if (now - EPOCH === SEEDED_ID_MS) now += 1n;
  if (now === lastMs) {
    sequence = (sequence + 1n) & 0xfffn;
    if (sequence === 0n) now = lastMs + 1n; // sequence exhausted: borrow the next millisecond
  } else {
    sequence = 0n;
  }
  lastMs = now;
  return ((now - EPOCH) << 22n) | (worker << 12n) | sequence;
}

/**
 * `count` consecutive ids (count ≥ 1), answered as the first: all in one millisecond's sequence,
 * the next millisecond borrowed when the sequence has too little room left. A stored message
 * takes one block and its points are its id plus their position (the `mes_telemetry` view).
 */
export function nextIdBlock(count: number): string {
  return nextIdBlockValue(count).toString();
}

/** {@link nextIdBlock} as a bigint (a binary COPY writes it as is: no decimal text made and read). */
export function nextIdBlockValue(count: number): bigint {
  const n = BigInt(Math.max(1, Math.min(4096, Math.trunc(count))));
  const first = nextIdValue();
  if ((first & 0xfffn) + n - 1n <= 0xfffn) {
    sequence = (first & 0xfffn) + n - 1n;
    return first;
  }
  // Not enough room in this millisecond: start the block at the next one.
  lastMs += 1n;
  if (lastMs - EPOCH === SEEDED_ID_MS) lastMs += 1n;
  sequence = n - 1n;
  return ((lastMs - EPOCH) << 22n) | (worker << 12n);
}

/**
 * An id a request may name: decimal digits within the signed 64-bit range of the `bigint`
 * columns. Every route checks ids with this before a query, since PostgreSQL answers an id
 * out of range with an error instead of "no row".
 */
export const isId = (text: string): boolean => isIdText(text);

import { randomInt } from 'node:crypto';

/**
 * Snowflake-style 64-bit ids (41 bits of milliseconds since 2020-01-01, 10 bits of worker,
 * 12 bits of sequence), sortable by creation time like BladeX ids. The worker number is random
 * per process, so several API processes rarely collide; the primary key would refuse a clash.
 */
const EPOCH = 1_577_836_800_000n;
const worker = BigInt(randomInt(1024));
let lastMs = 0n;
let sequence = 0n;

export function nextId(): string {
  let now = BigInt(Date.now());
  if (now < lastMs) now = lastMs; // clock moved back: stay monotonic
  if (now === lastMs) {
    sequence = (sequence + 1n) & 0xfffn;
    if (sequence === 0n) now = lastMs + 1n; // sequence exhausted: borrow the next millisecond
  } else {
    sequence = 0n;
  }
  lastMs = now;
  return (((now - EPOCH) << 22n) | (worker << 12n) | sequence).toString();
}

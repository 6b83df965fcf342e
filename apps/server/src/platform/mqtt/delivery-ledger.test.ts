import { describe, expect, it } from 'vitest';
import { DeliveryLedger, RECENT, digest } from './delivery-ledger';

/** The classification of redeliveries (the database side is covered by test/mqtt-durability.test.ts). */
const ledger = () => new DeliveryLedger(undefined as never, 'session', 500);
const hash = (payload: string) => digest('mes/t/D1/telemetry', Buffer.from(payload));

describe('DeliveryLedger', () => {
  it('stores a first delivery and recognises its redelivery after the commit', () => {
    const l = ledger();
    expect(l.accept(7, hash('a'), false)).toBe('new');
    l.commit(7, hash('a'), l.epoch);
    expect(l.accept(7, hash('a'), true)).toBe('committed');
  });

  it('answers a redelivery of a message still queued with the queued copy', () => {
    const l = ledger();
    expect(l.accept(7, hash('a'), false)).toBe('new');
    expect(l.accept(7, hash('a'), true)).toBe('pending');
  });

  it('stores a redelivery it never committed, and one whose content differs', () => {
    const l = ledger();
    expect(l.accept(9, hash('a'), true)).toBe('new');
    l.commit(9, hash('a'), l.epoch);
    expect(l.accept(9, hash('b'), true)).toBe('new');
  });

  it('forgets a packet id the broker reused for a first delivery', () => {
    const l = ledger();
    l.accept(7, hash('a'), false);
    l.commit(7, hash('a'), l.epoch);
    // Id 7 freed by our PUBACK and given to a new message (no DUP): a later DUP of 7 is that one.
    expect(l.accept(7, hash('a'), false)).toBe('new');
    expect(l.accept(7, hash('a'), true)).toBe('pending');
  });

  it('voids everything when the broker starts a new session', () => {
    const l = ledger();
    l.accept(7, hash('a'), false);
    const before = l.epoch;
    l.reset();
    l.commit(7, hash('a'), before);
    expect(l.accept(7, hash('a'), true)).toBe('new');
  });

  it('remembers the last RECENT committed deliveries only', () => {
    const l = ledger();
    for (let id = 1; id <= RECENT + 1; id++) {
      l.accept(id, id, false);
      l.commit(id, id, l.epoch);
    }
    expect(l.accept(1, 1, true)).toBe('new');
    expect(l.accept(RECENT + 1, RECENT + 1, true)).toBe('committed');
  });

  it('keeps an id committed again after its earlier commit left the recent ones', () => {
    const l = ledger();
    l.accept(1, 11, false);
    l.commit(1, 11, l.epoch);
    for (let i = 0; i < RECENT - 1; i++) {
      const id = 2 + (i % 1000);
      l.accept(id, id, false);
      l.commit(id, id, l.epoch);
    }
    // Id 1 again (a new message on a freed id), then one more commit pushes its first commit out.
    l.accept(1, 12, false);
    l.commit(1, 12, l.epoch);
    l.accept(2000, 2000, false);
    l.commit(2000, 2000, l.epoch);
    expect(l.accept(1, 12, true)).toBe('committed');
    expect(l.accept(1, 11, true)).toBe('new');
  });

  it('digests topic and payload apart', () => {
    expect(digest('a/b', Buffer.from('c'))).not.toBe(digest('a', Buffer.from('/bc')));
  });
});

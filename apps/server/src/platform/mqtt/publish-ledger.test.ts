import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PublishLedger, type Publication } from './publish-ledger';

// accept / commit / forget run in memory; `load` reads the device's row: none here (a fake pool).
const ledger = () => new PublishLedger({ query: () => Promise.resolve({ rows: [] }) } as unknown as pg.Pool);
const pub = (packetId: number, hash: number, connection: number): Publication => ({
  clientId: 'd_1',
  packetId,
  hash,
  connection,
});

describe('PublishLedger (the embedded broker’s dedup of resends)', () => {
  it('recognises a committed message sent again on a new connection, with or without DUP', async () => {
    const l = ledger();
    await l.load('d_1');
    expect(l.accept(pub(7, 42, 1), false)).toEqual({ kind: 'new' });
    l.commit(pub(7, 42, 1));
    // The PUBACK went out on connection 1: the same id there is a new message.
    expect(l.accept(pub(7, 42, 1), false)).toEqual({ kind: 'new' });
    l.commit(pub(7, 42, 1));
    // Connection 2 (a reconnect): the same id and digest is the resend, DUP or not.
    expect(l.accept(pub(7, 42, 2), false)).toEqual({ kind: 'committed' });
    expect(l.accept(pub(7, 42, 2), true)).toEqual({ kind: 'committed' });
    // Another payload under the same id is a new message.
    expect(l.accept(pub(7, 43, 2), false)).toEqual({ kind: 'new' });
  });

  it('answers a resend of a message still queued with that message’s commit', async () => {
    const l = ledger();
    expect(l.accept(pub(9, 1, 1), false)).toEqual({ kind: 'new' });
    const again = l.accept(pub(9, 1, 2), true);
    expect(again.kind).toBe('pending');
    let acked = false;
    if (again.kind === 'pending') void again.wait.then(() => (acked = true));
    l.commit(pub(9, 1, 1));
    await Promise.resolve();
    expect(acked).toBe(true);
  });

  it('forgets a device with no connection here; its row is read again at its next sign-in', async () => {
    const l = ledger();
    await l.load('d_1');
    l.accept(pub(1, 5, 1), false);
    l.commit(pub(1, 5, 1));
    l.forget('d_1');
    expect(l.accept(pub(1, 5, 2), false)).toEqual({ kind: 'new' });
  });
});

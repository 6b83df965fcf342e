import { describe, expect, it } from 'vitest';
import { appendCapped, batches, describeReason, FIELD_LIMITS, makeEntry, type ErrorLogEntry } from './error-entry';

const entry = (n: number): ErrorLogEntry => makeEntry({ message: `e${n}`, url: 'http://x/', time: n });

describe('local error entries', () => {
  it('describes errors, strings, objects, undefined and cyclic values', () => {
    const error = new Error('boom');
    expect(describeReason(error)).toEqual({ message: 'boom', stack: error.stack });
    expect(describeReason('plain')).toEqual({ message: 'plain', stack: '' });
    expect(describeReason({ code: 7 })).toEqual({ message: '{"code":7}', stack: '' });
    expect(describeReason(undefined).message).toBe('undefined');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeReason(cyclic).message).toBe('[object Object]');
  });

  it('clips fields to what the server accepts', () => {
    const e = makeEntry({ message: 'm'.repeat(5000), stack: 's'.repeat(9000), url: 'u'.repeat(3000), time: 1 });
    expect(e.message).toHaveLength(FIELD_LIMITS.message);
    expect(e.stack).toHaveLength(FIELD_LIMITS.stack);
    expect(e.url).toHaveLength(FIELD_LIMITS.url);
    expect(e).toMatchObject({ type: 'error', info: '', time: 1 });
  });

  it('keeps the newest entries up to the cap', () => {
    let list: ErrorLogEntry[] = [];
    for (let i = 0; i < 5; i++) list = appendCapped(list, entry(i), 3);
    expect(list.map((e) => e.message)).toEqual(['e2', 'e3', 'e4']);
  });

  it('splits uploads into batches the server accepts', () => {
    const list = Array.from({ length: 201 }, (_, i) => i);
    expect(batches(list).map((b) => b.length)).toEqual([100, 100, 1]);
    expect(batches([])).toEqual([]);
  });
});

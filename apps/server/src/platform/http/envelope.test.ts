import { describe, expect, it } from 'vitest';
import { pageOf, serializeJson } from './envelope';

describe('serializeJson', () => {
  it('writes dates as yyyy-MM-dd HH:mm:ss and bigints as strings, at any depth', () => {
    const json = serializeJson({
      a: new Date(2026, 10, 22, 8, 0, 1),
      nested: [{ id: 12345678901234567890n }],
      n: null,
    });
    expect(JSON.parse(json)).toEqual({ a: '2026-11-22 08:00:01', nested: [{ id: '12345678901234567890' }], n: null });
  });
  it('writes an invalid date as null instead of throwing', () => {
    expect(serializeJson({ d: new Date('nope') })).toBe('{"d":null}');
  });
  it('writes everything else as JSON.stringify does', () => {
    class Money {
      constructor(readonly cents: number) {}
      toJSON() {
        return `${this.cents / 100} 元`;
      }
    }
    const payload = {
      z: 1,
      a: [undefined, () => 1, 'x', { b: undefined, c: [[]] }],
      s: '引号 " 与 \\ 与 \n',
      buffer: Buffer.from('hi'),
      money: new Money(250),
      map: new Map([['k', 1]]),
      n: Number.NaN,
      f: false,
      d: new Date(2026, 0, 2, 3, 4, 5),
    };
    expect(serializeJson(payload)).toBe(JSON.stringify({ ...payload, d: '2026-01-02 03:04:05' }));
    expect(serializeJson('text')).toBe('"text"');
    expect(serializeJson(null)).toBe('null');
    expect(serializeJson(5n)).toBe('"5"');
  });
});

describe('pageOf', () => {
  it('counts pages', () => {
    expect(pageOf([], 0, 1, 10).pages).toBe(0);
    expect(pageOf([], 21, 3, 10)).toEqual({ records: [], total: 21, size: 10, current: 3, pages: 3 });
  });
});

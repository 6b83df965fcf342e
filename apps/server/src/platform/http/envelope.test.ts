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
});

describe('pageOf', () => {
  it('counts pages', () => {
    expect(pageOf([], 0, 1, 10).pages).toBe(0);
    expect(pageOf([], 21, 3, 10)).toEqual({ records: [], total: 21, size: 10, current: 3, pages: 3 });
  });
});

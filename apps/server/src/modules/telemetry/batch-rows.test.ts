import { describe, expect, it } from 'vitest';
import { OnOffReason } from '@mes/contracts';
import type { PresenceEvent } from '../../platform/mqtt/topics';
import { BatchRows, clip, convertValue, errorText, parseTs, printable, type ValueCounters } from './batch-rows';
import type { KnownDevice, ModelField } from './device-directory';

const now = Date.UTC(2026, 10, 24, 12);
const HOUR = 3_600_000;
const field = (f: Partial<ModelField>): ModelField => ({ field: 'x', dataType: 'float', unit: '', precision: 2, ...f });

describe('numbers keep their value (convertValue)', () => {
  it('refuses an integer beyond ±(2^53 − 1): JSON already reads 9007199254740993 as …992', () => {
    const int = field({ dataType: 'int', precision: 0 });
    const sent = JSON.parse('9007199254740993') as number;
    expect(sent).toBe(9007199254740992);
    expect(convertValue(int, sent)).toBe('x is beyond ±9007199254740991, the largest integer kept exactly');
    expect(convertValue(int, -9007199254740992)).toBe(
      'x is beyond ±9007199254740991, the largest integer kept exactly',
    );
    expect(convertValue(int, 9007199254740991)).toEqual({ num: '9007199254740991', text: null });
    expect(convertValue(field({ dataType: 'enum' }), 2 ** 60)).toBe(
      'x is beyond ±9007199254740991, the largest integer kept exactly',
    );
    expect(convertValue(field({}), 1e16)).toBe('x is beyond ±9007199254740991, the largest magnitude kept exactly');
  });

  it('refuses a nonzero number below the column’s least step instead of storing 0', () => {
    expect(convertValue(field({}), 1e-300)).toBe(
      'x 1e-300 is smaller than 0.000001, the least the column keeps: it would be stored as 0',
    );
    expect(convertValue(field({}), -4e-7)).toBe(
      'x -4e-7 is smaller than 0.000001, the least the column keeps: it would be stored as 0',
    );
    expect(convertValue(field({ precision: 6 }), 0.000001)).toEqual({ num: '0.000001', text: null });
    expect(convertValue(field({}), 0)).toEqual({ num: '0', text: null });
  });

  it('rounds to the field’s declared precision, the model’s documented behaviour', () => {
    expect(convertValue(field({ precision: 2 }), 0.001)).toEqual({ num: '0', text: null });
    expect(convertValue(field({ precision: 1 }), 1.26)).toEqual({ num: '1.3', text: null });
    expect(convertValue(field({ precision: 6 }), 123456789.1234567)).toEqual({ num: '123456789.123457', text: null });
    // Precision beyond the column's 6 decimals is the column's 6.
    expect(convertValue(field({ precision: 9 }), 0.1234567)).toEqual({ num: '0.123457', text: null });
  });

  it('judges a scaled value by what was sent, not by the arithmetic’s last bit', () => {
    // 3 × 0.1 − 0.3 is 5.55e-17 in doubles: 0 at any precision, not an underflow.
    expect(convertValue(field({ scaling: { multiplier: 0.1, offset: -0.3 } }), 3)).toEqual({ num: '0', text: null });
    expect(convertValue(field({ scaling: { multiplier: 1e6, offset: 0 } }), 1e-7)).toEqual({ num: '0.1', text: null });
    expect(convertValue(field({ scaling: { multiplier: 1000, offset: 0 } }), 1e-300)).toBe(
      'x 1e-297 is smaller than 0.000001, the least the column keeps: it would be stored as 0',
    );
    expect(convertValue(field({ scaling: { multiplier: 1e6, offset: 0 } }), 1e12)).toBe(
      'x is beyond ±9007199254740991 after scaling, the largest magnitude kept exactly',
    );
  });

  it('refuses NaN and infinities (Sparkplug floats can carry them)', () => {
    expect(convertValue(field({}), Number.NaN)).toBe('x is not a finite number');
    expect(convertValue(field({ dataType: 'int' }), Number.POSITIVE_INFINITY)).toBe('x is not a finite number');
  });
});

describe('texts are stored as sent or refused (convertValue)', () => {
  const text = field({ dataType: 'string' });
  it('refuses NUL and other control characters, keeping tab and line breaks', () => {
    expect(convertValue(text, 'a\u0000b')).toBe('x contains the control character U+0000');
    expect(convertValue(text, 'a\u001bb')).toBe('x contains the control character U+001B');
    expect(convertValue(text, 'a\u0085b')).toBe('x contains the control character U+0085');
    expect(convertValue(text, 'line 1\r\nline 2\tend')).toEqual({ num: null, text: 'line 1\r\nline 2\tend' });
  });

  it('refuses a lone surrogate (PostgreSQL would store U+FFFD, or refuse it in jsonb)', () => {
    expect(convertValue(text, 'ok\ud800')).toBe('x contains a lone surrogate U+D800 (broken UTF-16)');
    expect(convertValue(field({ dataType: 'enum' }), '\udfff')).toBe(
      'x contains a lone surrogate U+DFFF (broken UTF-16)',
    );
    expect(convertValue(text, '😀')).toEqual({ num: null, text: '😀' });
  });

  it('refuses more than 255 characters instead of cutting them, counting as varchar does', () => {
    expect(convertValue(text, 'a'.repeat(256))).toBe('x is longer than 255 characters (256)');
    // 255 characters beyond the BMP are 510 UTF-16 units, and fit varchar(255).
    expect(convertValue(text, '😀'.repeat(255))).toEqual({ num: null, text: '😀'.repeat(255) });
  });
});

describe('a batch’s values (BatchRows.addValue)', () => {
  const device: KnownDevice = {
    deviceId: '1',
    tenantId: '000000',
    deviceCode: 'WL-1',
    productId: '1',
    fields: new Map([
      ['level', field({ field: 'level' })],
      ['count', field({ field: 'count', dataType: 'int', precision: 0 })],
    ]),
    inactivitySeconds: 600,
  };
  const counters = (): ValueCounters => ({ unknownField: 0, wrongType: 0, badText: 0, aheadOfClock: 0, inexact: 0 });
  const rows = () => new BatchRows({ now, maxAheadMs: 300_000 });
  const at = new Date(now);

  it('refuses a field name with a control character, a lone surrogate or more than 64 characters, shown escaped', () => {
    const batch = rows();
    const c = counters();
    expect(batch.addValue(device, 'a\u0000b', 1, at, c)).toBe(
      'field name a\\u0000b contains the control character U+0000',
    );
    expect(batch.addValue(device, '\ud800', 1, at, c)).toBe(
      'field name \\ud800 contains a lone surrogate U+D800 (broken UTF-16)',
    );
    expect(batch.addValue(device, 'n'.repeat(70), 1, at, c)).toBe(
      `field name ${'n'.repeat(64)}… is longer than 64 characters (70)`,
    );
    expect(batch.addValue(device, 'colour\u0085', 1, at, c)).toBe(
      'field name colour\\u0085 contains the control character U+0085',
    );
    expect(batch.addValue(device, 'colour', 1, at, c)).toBe('unknown field colour');
    expect(c).toEqual({ unknownField: 1, wrongType: 0, badText: 4, aheadOfClock: 0, inexact: 0 });
    expect(batch.latest).toEqual([]);
    expect(batch.rollups.points).toBe(0);
  });

  it('refuses a point further ahead than the allowed skew; it never becomes the latest value', () => {
    const batch = rows();
    const c = counters();
    expect(batch.addValue(device, 'level', 1, new Date(now - 1000), c)).toEqual({
      field: 'level',
      value: '1',
    });
    expect(batch.addValue(device, 'level', 99, new Date(now + 23 * HOUR), c)).toBe(
      "level: ts is 82800 s (23 h) ahead of the server's clock, more than the 300 s allowed",
    );
    expect(batch.addValue(device, 'level', 98, new Date(now + 300_001), c)).toBe(
      "level: ts is 301 s ahead of the server's clock, more than the 300 s allowed",
    );
    expect(batch.addValue(device, 'level', 2, new Date(now + 300_000), c)).toEqual({
      field: 'level',
      value: '2',
    });
    expect(batch.latest.map((r) => r.num)).toEqual(['2']);
    expect(batch.rollups.points).toBe(2);
    expect(c.aheadOfClock).toBe(2);
  });

  it('counts numbers it cannot keep apart from wrong types and bad texts', () => {
    const batch = rows();
    const c = counters();
    batch.addValue(device, 'count', 2 ** 53, at, c);
    batch.addValue(device, 'level', 1e-300, at, c);
    batch.addValue(device, 'level', 'x', at, c);
    expect(c).toEqual({ unknownField: 0, wrongType: 1, badText: 0, aheadOfClock: 0, inexact: 2 });
  });
});

describe('times, and what the log stores', () => {
  it('reads a report time from 2000 to a day ahead; the clock skew is held per point', () => {
    const received = new Date(now);
    expect(parseTs(undefined, received, now)).toBe(received);
    expect(parseTs(now + 23 * HOUR, received, now)).toEqual(new Date(now + 23 * HOUR));
    expect(parseTs(now + 25 * HOUR, received, now)).toBe(
      "ts is 90000 s (25 h) ahead of the server's clock, more than a day",
    );
    expect(parseTs(now + 400_000, received, now, 300_000)).toBe(
      "ts is 400 s ahead of the server's clock, more than the 300 s allowed",
    );
    expect(parseTs(946684799999, received, now)).toBe('ts is out of range');
  });

  it('escapes NUL and lone surrogates in logged text, and never cuts a surrogate pair', () => {
    expect(printable('{"a":"\u0000"}\ud800')).toBe('{"a":"\\u0000"}\\ud800');
    expect(printable('tab\tok 😀')).toBe('tab\tok 😀');
    expect(clip('ab😀', 3)).toBe('ab');
    expect(clip('ab😀', 4)).toBe('ab😀');
    expect(errorText([`${'e'.repeat(499)}😀`])).toBe('e'.repeat(499));
    expect(errorText([])).toBeNull();
  });
});

describe('presence of a batch (BatchRows.addActivity, addPresence)', () => {
  type Event = PresenceEvent;

  /**
   * What applyPresence (device-presence.ts) reads of a batch's events per device: an online-only
   * device its earliest and latest time; any other its events replayed in order from offline and
   * from online (each transition, and the last activity).
   */
  function readPresence(events: readonly Event[]) {
    const perDevice = new Map<string, Event[]>();
    for (const e of events) {
      const key = `${e.tenantId}/${e.deviceCode}`;
      perDevice.set(key, [...(perDevice.get(key) ?? []), e]);
    }
    const read: Record<string, unknown> = {};
    for (const [key, list] of perDevice) {
      if (list.every((e) => e.online)) {
        const times = list.map((e) => e.at.getTime());
        read[key] = { first: Math.min(...times), last: Math.max(...times) };
        continue;
      }
      read[key] = [false, true].map((startOnline) => {
        let online = startOnline;
        let activity: number | undefined;
        const transitions: string[] = [];
        for (const e of list) {
          if (e.online) activity = e.at.getTime();
          if (e.online === online) continue;
          online = e.online;
          transitions.push(`${e.online ? 'on' : 'off'} ${e.at.getTime()} ${e.reason}`);
        }
        return { transitions, activity, online };
      });
    }
    return read;
  }

  it('keeps what applyPresence reads of every device while holding at most four events per run of reports', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let round = 0; round < 200; round++) {
      const rows = new BatchRows({ now, maxAheadMs: HOUR });
      const all: Event[] = [];
      const length = 1 + Math.floor(random() * 40);
      for (let i = 0; i < length; i++) {
        const deviceCode = `d${Math.floor(random() * 3)}`;
        const at = new Date(now - Math.floor(random() * 20) * 1000);
        const kind = random();
        if (kind < 0.8) {
          rows.addActivity('t', deviceCode, at);
          all.push({ tenantId: 't', deviceCode, online: true, at, reason: OnOffReason.normal });
        } else {
          const event = {
            tenantId: 't',
            deviceCode,
            online: kind < 0.85,
            at,
            reason: kind < 0.9 ? OnOffReason.normal : OnOffReason.lastWill,
          };
          rows.addPresence(event);
          all.push(event);
        }
      }
      expect(readPresence(rows.presence)).toEqual(readPresence(all));
    }
  });

  it('holds four events for a device’s hundred reports, earliest and latest among them', () => {
    const rows = new BatchRows({ now, maxAheadMs: HOUR });
    const times = Array.from({ length: 100 }, (_, i) => now - ((i * 37) % 100) * 1000);
    for (const t of times) rows.addActivity('t', 'd', new Date(t));
    const held = rows.presence.map((e) => e.at.getTime());
    expect(held).toHaveLength(4);
    expect([held[0], held[3]]).toEqual([times[0], times[99]]);
    expect([Math.min(...held), Math.max(...held)]).toEqual([Math.min(...times), Math.max(...times)]);
  });
});

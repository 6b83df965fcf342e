import { describe, expect, it } from 'vitest';
import { CycleResult } from '@mes/contracts';
import { parseCycle } from './cycle-report';

const now = Date.UTC(2026, 10, 24, 12);
const received = new Date(now);
const device = { tenantId: '000000', deviceCode: 'ST-1' };
const clock = { now, maxAheadMs: 300_000 };
const parse = (body: unknown) =>
  parseCycle(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), received, clock, device);
const base = {
  program: 2,
  programName: '134℃',
  start: new Date(now - 3_300_000).toISOString(),
  end: new Date(now).toISOString(),
  result: 'aborted',
  faultCode: 7,
};

describe('cycle reports', () => {
  it('read the simulator’s payload: result, times, figures into columns and all of them into figures', () => {
    const row = parse({
      ...base,
      ts: now,
      durationSeconds: 3300,
      targetConcentration: 50,
      maxConcentration: 52.1,
      minHoldConcentration: 48.5,
      holdSeconds: 1800.4,
      flushSeconds: 600,
    });
    expect(row).toMatchObject({
      tenantId: '000000',
      deviceCode: 'ST-1',
      programNo: 2,
      programName: '134℃',
      durationSeconds: 3300,
      result: CycleResult.aborted,
      faultCode: 7,
      minConcentration: 48.5,
      maxTemperature: null,
      holdSeconds: 1800,
      figures: {
        targetConcentration: 50,
        maxConcentration: 52.1,
        minHoldConcentration: 48.5,
        holdSeconds: 1800.4,
        flushSeconds: 600,
      },
    });
    expect(typeof row === 'object' && row.start.getTime()).toBe(now - 3_300_000);
  });

  it('fill defaults: program 0, fault 0, duration from the times', () => {
    expect(parse({ start: now - 60_000, end: now, result: 'pass' })).toMatchObject({
      programNo: 0,
      programName: '',
      faultCode: 0,
      durationSeconds: 60,
      result: CycleResult.pass,
      figures: {},
    });
  });

  it('refuse what cannot be a cycle, saying why', () => {
    expect(parse('nope')).toBe('payload is not JSON');
    expect(parse([1])).toBe('payload is not a JSON object');
    expect(parse({ ...base, start: undefined })).toBe('cycle start is missing');
    expect(parse({ ...base, end: null })).toBe('cycle end is missing');
    expect(parse({ ...base, start: 'soon' })).toBe('cycle start: is neither epoch milliseconds nor an ISO time');
    expect(parse({ ...base, start: '1999-12-31T00:00:00Z' })).toBe('cycle start: is out of range');
    expect(parse({ ...base, start: now + 1000 })).toBe('cycle end is before its start');
    expect(parse({ ...base, result: 'PASS' })).toBe('cycle result is neither pass, fail nor aborted');
    expect(parse({ ...base, program: 1.5 })).toBe('cycle program is not a program no. (0–9999)');
    expect(parse({ ...base, faultCode: -1 })).toBe('cycle faultCode is not an integer ≥ 0');
    expect(parse({ ...base, durationSeconds: '60' })).toBe('cycle durationSeconds is not an integer ≥ 0');
    expect(parse({ ...base, programName: 5 })).toBe('cycle programName is not text');
  });

  it('keep a figure too large for its column in figures only', () => {
    const row = parse({ ...base, maxPressure: 1e12 });
    expect(row).toMatchObject({ maxPressure: null, figures: { maxPressure: 1e12 } });
  });

  it('refuse a cycle that ends further ahead of the server’s clock than the allowed skew', () => {
    expect(parse({ ...base, end: now + 23 * 3_600_000 })).toBe(
      "cycle end: is 82800 s (23 h) ahead of the server's clock, more than the 300 s allowed",
    );
    expect(parse({ ...base, end: now + 301_000 })).toBe(
      "cycle end: is 301 s ahead of the server's clock, more than the 300 s allowed",
    );
    expect(parse({ ...base, end: now + 300_000 })).toMatchObject({ end: new Date(now + 300_000) });
  });

  it('refuse a program name or figure name PostgreSQL cannot store, or that is too long, instead of changing it', () => {
    expect(parse({ ...base, programName: 'P\u0000' })).toBe('cycle programName contains the control character U+0000');
    expect(parse({ ...base, programName: 'P\ud800' })).toBe(
      'cycle programName contains a lone surrogate U+D800 (broken UTF-16)',
    );
    expect(parse({ ...base, programName: 'P'.repeat(65) })).toBe('cycle programName is longer than 64 characters (65)');
    // 64 characters, one of them beyond the BMP (two UTF-16 units), is what varchar(64) holds.
    expect(parse({ ...base, programName: `${'P'.repeat(63)}😀` })).toMatchObject({
      programName: `${'P'.repeat(63)}😀`,
    });
    expect(parse(`{"start":${now - 1000},"end":${now},"result":"pass","a\\u0000b":1}`)).toBe(
      'cycle figure name a\\u0000b contains the control character U+0000',
    );
    expect(parse({ ...base, ['f'.repeat(65)]: 1 })).toBe(
      `cycle figure name ${'f'.repeat(64)}… is longer than 64 characters (65)`,
    );
  });

  it('refuse a figure beyond ±(2^53 − 1), whose digits a JSON number no longer keeps', () => {
    expect(parse(`{"start":${now - 1000},"end":${now},"result":"pass","count":9007199254740993}`)).toBe(
      'cycle figure count is beyond ±9007199254740991, the largest magnitude kept exactly',
    );
    expect(parse({ ...base, count: 9007199254740991 })).toMatchObject({ figures: { count: 9007199254740991 } });
  });
});

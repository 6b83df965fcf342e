import { describe, expect, it } from 'vitest';
import { CycleResult } from '@mes/contracts';
import { parseCycle } from './cycle-report';

const now = Date.UTC(2026, 10, 24, 12);
const received = new Date(now);
const device = { tenantId: '000000', deviceCode: 'ST-1' };
const parse = (body: unknown) =>
  parseCycle(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), received, now, device);
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
    expect(parse({ ...base, end: now + 3 * 86_400_000 })).toBe('cycle end: is out of range');
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
});

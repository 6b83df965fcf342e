import { describe, expect, it } from 'vitest';
import type { TelemetryRow } from './telemetry-row';
import { entriesJson, latestByDevice, latestMerge, replaces } from './device-latest';

const point = (deviceCode: string, field: string, ts: number, num: string | null, text: string | null = null) =>
  ({ tenantId: 't1', deviceCode, field, ts: new Date(ts), num, text }) satisfies TelemetryRow;

describe('latest values, one row per device', () => {
  it('a point replaces the stored one unless that one is newer', () => {
    expect(replaces(undefined, { ts: 5 })).toBe(true);
    expect(replaces({ ts: 4 }, { ts: 5 })).toBe(true);
    expect(replaces({ ts: 5 }, { ts: 5 })).toBe(true);
    expect(replaces({ ts: 6 }, { ts: 5 })).toBe(false);
  });

  it("keeps each device's newest point per field, a late one never replacing it", () => {
    const devices = latestByDevice([
      point('A', 'temp', 2000, '20.5'),
      point('A', 'temp', 1000, '10'),
      point('B', 'temp', 1000, '11'),
      point('A', 'state', 1500, null, 'run'),
      point('A', 'state', 1500, null, 'stop'),
    ]);
    expect(devices.map((d) => d.deviceCode)).toEqual(['A', 'B']);
    const a = devices[0]!;
    expect(a.entries.get('temp')).toMatchObject({ ts: 2000, v: 20.5 });
    // Two points at the same time: the one read last, as the stored rule does.
    expect(a.entries.get('state')).toMatchObject({ ts: 1500, v: 'stop' });
  });

  it('writes numbers as the stored decimal text, exactly', () => {
    const [device] = latestByDevice([
      point('A', 'big', 1, '1000000000000000.125'),
      point('A', 'say "hi"', 2, null, 'a "quoted"\\ text\n'),
    ]);
    const json = entriesJson(device!.entries);
    expect(json).toContain('"v":1000000000000000.125}');
    expect(JSON.parse(json)).toEqual({
      big: { ts: 1, v: 1000000000000000.1 },
      'say "hi"': { ts: 2, v: 'a "quoted"\\ text\n' },
    });
  });

  it('one element of one JSON parameter per device, in one statement', () => {
    const statement = latestMerge(
      latestByDevice([point('A', 'x', 1, '1'), point('B', 'x', 1, '2'), point('A', 'y', 1, '3')]),
    );
    expect(statement.values).toHaveLength(1);
    const rows = JSON.parse(statement.values[0] as string) as {
      id: string;
      tenant_id: string;
      device_code: string;
      latest: object;
    }[];
    expect(rows.map((r) => [r.tenant_id, r.device_code, Object.keys(r.latest)])).toEqual([
      ['t1', 'A', ['x', 'y']],
      ['t1', 'B', ['x']],
    ]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
  });
});

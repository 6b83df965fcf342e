import { describe, expect, it } from 'vitest';
import { acquisitionCopyData } from './acquisition-copy';
import { valuesJson, type AcquisitionRow, type StoredValue } from './batch-rows';

/** The fields of each row of a binary COPY body, as byte strings (null for SQL NULL). */
function copyRows(body: Buffer): (Buffer | null)[][] {
  expect(body.subarray(0, 11).toString('latin1')).toBe('PGCOPY\n\xff\r\n\0');
  let at = 19;
  const rows: (Buffer | null)[][] = [];
  for (;;) {
    const count = body.readInt16BE(at);
    at += 2;
    if (count === -1) break;
    const fields: (Buffer | null)[] = [];
    for (let i = 0; i < count; i++) {
      const length = body.readInt32BE(at);
      at += 4;
      fields.push(length < 0 ? null : body.subarray(at, at + length));
      if (length > 0) at += length;
    }
    rows.push(fields);
  }
  expect(at).toBe(body.length);
  return rows;
}

const row = (over: Partial<AcquisitionRow>): AcquisitionRow => ({
  tenantId: 't1',
  deviceCode: 'D-1',
  gateway: '',
  groupId: 'g',
  collectTime: new Date(Date.UTC(2026, 10, 29, 3)),
  values: { temperature: '121.5', pressure: '-0.25', cycleCount: '7' },
  errors: null,
  topic: 'mes/t1/D-1/telemetry',
  protocol: 'mqtt',
  seq: null,
  ...over,
});

describe('acquisition rows by binary COPY', () => {
  it('writes the values jsonb as valuesJson makes it, byte for byte, after its version byte', () => {
    const values: Record<string, StoredValue>[] = [
      { temperature: '121.5', pressure: '-0.25', cycleCount: '7' },
      { 'name "quoted"\\': '1', ünï: '0.000001', note: { text: 'a "text"\\ with ünïcode ✓ and 𝄞' } },
      {},
    ];
    const rows = copyRows(acquisitionCopyData(values.map((v) => row({ values: v }))));
    expect(rows).toHaveLength(3);
    rows.forEach((fields, i) => {
      const jsonb = fields[6]!;
      expect(jsonb[0]).toBe(1);
      expect(jsonb.subarray(1).toString('utf8')).toBe(valuesJson(values[i]!));
      expect(JSON.parse(jsonb.subarray(1).toString('utf8'))).toEqual(
        Object.fromEntries(Object.entries(values[i]!).map(([k, v]) => [k, typeof v === 'string' ? Number(v) : v.text])),
      );
    });
  });

  it('writes texts as UTF-8 whether or not they are ASCII, and absent ones as NULL', () => {
    const [fields] = copyRows(
      acquisitionCopyData([
        row({
          tenantId: 'tenant-ü',
          deviceCode: '设备-1',
          topic: 'mes/tenant-ü/设备-1/telemetry',
          errors: 'x: 𝄞 refused',
          seq: 42,
          message: {
            clientId: 'client-é',
            qos: 1,
            retain: true,
            receivedAt: new Date(Date.UTC(2026, 10, 29, 3, 0, 1)),
          },
        }),
      ]),
    );
    const text = (i: number) => fields![i]!.toString('utf8');
    expect([text(1), text(2), text(3), text(4), text(7), text(8), text(9), text(11)]).toEqual([
      'tenant-ü',
      '设备-1',
      '',
      'g',
      'x: 𝄞 refused',
      'mes/tenant-ü/设备-1/telemetry',
      'mqtt',
      'client-é',
    ]);
    expect(fields![10]!.readInt32BE(0)).toBe(42);
    expect(fields![13]![0]).toBe(1);
    const [plain] = copyRows(acquisitionCopyData([row({})]));
    expect(plain!.slice(10)).toEqual([null, null, null, null, null]);
    expect(plain![7]).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { parseLivePayload } from './live-hub';

describe('parseLivePayload', () => {
  const device = { type: 'device', action: 'online', tenantId: '000000', deptId: null, deviceCode: 'D1', at: 'x' };

  it('reads the array notifyLive sends, and a single event', () => {
    expect(parseLivePayload(JSON.stringify([device, { ...device, deviceCode: 'D2' }]))).toHaveLength(2);
    expect(parseLivePayload(JSON.stringify(device))).toEqual([device]);
  });

  it('drops entries without a known type or a tenant, and text that is not JSON', () => {
    const bad = [
      { ...device, type: 'other' },
      { ...device, tenantId: '' },
      { ...device, tenantId: 7 },
      null,
      'x',
      [device],
    ];
    expect(parseLivePayload(JSON.stringify([...bad, device]))).toEqual([device]);
    expect(parseLivePayload('not json')).toEqual([]);
    expect(parseLivePayload('')).toEqual([]);
  });
});

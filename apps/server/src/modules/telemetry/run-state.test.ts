import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '@mes/contracts';
import { runStateRefresh, touchedDevices } from './run-state';

const at = new Date('2026-11-28T06:00:00Z');
const point = (deviceCode: string) => ({ tenantId: '000000', deviceCode }) as never;

describe('run state evaluation per batch', () => {
  it('takes each device a batch touched once: new values, presence, cycles, warnings', () => {
    const warning: LiveEvent = {
      type: 'warning',
      action: 'raised',
      tenantId: '000000',
      deptId: null,
      warningId: '1',
      warningNo: 'W1',
      deviceCode: 'ST-4',
      level: 1,
      status: 1,
      message: 'fault 201',
      at: at.toISOString(),
    };
    const touched = touchedDevices(
      {
        latest: [point('ST-1'), point('ST-1'), point('ST-2')],
        presence: [{ tenantId: '000000', deviceCode: 'ST-2', online: true, at, reason: 'normal' }] as never,
        cycles: [point('ST-3')],
      },
      [warning],
    );
    expect(touched.map((d) => d.deviceCode).sort()).toEqual(['ST-1', 'ST-2', 'ST-3', 'ST-4']);
  });

  it('is one parameterised statement whatever the batch holds, writing only changed states', () => {
    const one = runStateRefresh([{ tenantId: '000000', deviceCode: 'ST-1' }]);
    const many = runStateRefresh(
      Array.from({ length: 1000 }, (_, i) => ({ tenantId: '000000', deviceCode: `ST-${i}` })),
    );
    expect(many.text).toBe(one.text);
    expect(many.values).toHaveLength(2);
    expect((many.values[1] as string[])[999]).toBe('ST-999');
    // No device code is ever part of the text (its plan is shared and nothing is injected).
    expect(many.text).not.toContain('ST-');
    expect(one.text).toContain('run_state is distinct from');
  });
});

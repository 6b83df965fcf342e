import { describe, expect, it } from 'vitest';
import { profileOf } from './alarm-rules';
import { cycleWarningText, fieldWarningText } from './warning-text';

const profile = (enumeration: { value: string; zh: string; en: string }[] | null) =>
  profileOf({
    tenant_id: '000000',
    device_code: 'ST-1',
    device_id: '1',
    dept_id: null,
    device_name: '灭菌器1',
    rules: [],
    limits: [],
    fields: [{ key: 'faultCode', name: '故障码', unit: '', enumeration }],
    programs: [],
  });

const FAULTS = [
  { value: '0', zh: '无故障', en: 'No fault' },
  { value: '201', zh: '蒸汽供应不足', en: 'Steam supply fault' },
];

describe('warning messages of enumerated fields', () => {
  const rule = {
    key: 'threshold:1',
    type: 'threshold' as const,
    field: 'faultCode',
    level: 2,
    holdMs: 0,
    operator: '!=' as const,
    threshold: 0,
  };

  it('name the value and the limit by the field’s enumeration, the number kept after the name', () => {
    const text = fieldWarningText(profile(FAULTS), { kind: 'raise', rule, at: 0, value: 201, threshold: 0 }, undefined);
    expect(text).toBe('设备「灭菌器1」(ST-1) 故障码(faultCode) 蒸汽供应不足(201),不等于阈值 无故障(0)');
    // Without names, as before.
    expect(fieldWarningText(profile(null), { kind: 'raise', rule, at: 0, value: 201, threshold: 0 }, undefined)).toBe(
      '设备「灭菌器1」(ST-1) 故障码(faultCode) 201,不等于阈值 0',
    );
  });

  it('name a failed cycle’s fault code', () => {
    const cycle = {
      id: '1',
      tenantId: '000000',
      deviceCode: 'ST-1',
      deptId: null,
      programNo: 1,
      programName: '134℃ 标准',
      result: 3,
      faultCode: 201,
      end: new Date(),
    };
    expect(cycleWarningText(profile(FAULTS), cycle)).toBe(
      '设备「灭菌器1」(ST-1) 程序 1 134℃ 标准运行中止,故障码 201 蒸汽供应不足',
    );
    expect(cycleWarningText(profile(null), cycle)).toBe('设备「灭菌器1」(ST-1) 程序 1 134℃ 标准运行中止,故障码 201');
  });
});

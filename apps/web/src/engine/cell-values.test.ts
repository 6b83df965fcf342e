import { describe, expect, it } from 'vitest';
import type { FieldDef, ResourceDef } from '@mes/contracts';
import { kindCell, yesNoOptions } from './cell-values';

const label = { zh: '字段', en: 'Field' };

describe('list cells by kind', () => {
  it('shows a referenced row by the name the server sent, the id only when there is none', () => {
    const target = { code: 't', title: label, table: 't', api: '/t', owner: 'tenant', fields: {} } as ResourceDef;
    const machine: FieldDef = { kind: 'reference', label, reference: { to: () => target, label: 'name' } };
    expect(kindCell(machine, 'machine', { machine: '12', machineName: '冲压机' }, 'zh')).toBe('冲压机');
    expect(kindCell(machine, 'machine', { machine: '12', machineName: '' }, 'zh')).toBe('12');
    expect(kindCell(machine, 'machine', { machine: null, machineName: '' }, 'zh')).toBe('');
  });

  it('shows booleans as 是 / 否 or Yes / No', () => {
    const flag: FieldDef = { kind: 'boolean', label };
    expect(kindCell(flag, 'flag', { flag: true }, 'zh')).toBe('是');
    expect(kindCell(flag, 'flag', { flag: false }, 'en')).toBe('No');
    expect(yesNoOptions('en')).toEqual([
      { label: 'Yes', value: 'true' },
      { label: 'No', value: 'false' },
    ]);
  });

  it('shows JSON as its text, shortened', () => {
    const spec: FieldDef = { kind: 'json', label };
    expect(kindCell(spec, 'spec', { spec: { a: 1 } }, 'zh')).toBe('{"a":1}');
    const long = kindCell(spec, 'spec', { spec: { a: 'x'.repeat(200) } }, 'zh') ?? '';
    expect(long.length).toBe(80);
    expect(long.endsWith('…')).toBe(true);
  });

  it('leaves other kinds to the raw value', () => {
    expect(kindCell({ kind: 'string', label }, 'name', { name: 'a' }, 'zh')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { formValuesProblem, type FlowFormField } from './flow-forms';

const field = (id: string, type: FlowFormField['type'], more: Partial<FlowFormField> = {}): FlowFormField => ({
  id,
  label: id,
  type,
  required: false,
  readonly: false,
  values: [],
  ...more,
});
const fields = [
  field('device', 'string', { label: '设备', required: true, maxlength: 8 }),
  field('count', 'long', { min: 1, max: 9 }),
  field('urgent', 'boolean'),
  field('needBy', 'date'),
  field('kind', 'enum', { values: [{ id: 'a', name: '甲' }] }),
  field('ticket', 'string', { readonly: true }),
];

describe('formValuesProblem (the start and task forms of a model)', () => {
  it('gives the values typed as the process keeps them', () => {
    expect(
      formValuesProblem(fields, { device: ' D1 ', count: '3', urgent: 'true', needBy: '2026-02-28', kind: 'a' }),
    ).toEqual({ values: { device: 'D1', count: 3, urgent: true, needBy: '2026-02-28', kind: 'a' } });
    // An unticked box is "no"; empty optional fields keep no value.
    expect(formValuesProblem(fields, { device: 'D1', kind: '' })).toEqual({
      values: { device: 'D1', urgent: false, kind: null },
    });
  });

  it.each([
    [{}, '请填写 设备 (device)', 'device (设备) is required'],
    [{ device: 'D1', count: 2.5 }, 'count 应为整数', 'count must be a whole number'],
    [{ device: 'D1', count: 10 }, 'count 不能大于 9', 'count must be at most 9'],
    [{ device: '123456789' }, '设备 (device) 最多 8 个字符', 'device (设备) may have at most 8 characters'],
    [{ device: 'D1', urgent: 1 }, 'urgent 应为是或否', 'urgent must be true or false'],
    [{ device: 'D1', needBy: '2026-02-30' }, 'needBy 应为日期 yyyy-MM-dd', 'needBy must be a date (yyyy-MM-dd)'],
    [{ device: 'D1', kind: 'b' }, 'kind 应为 a 之一', 'kind must be one of a'],
    [{ device: 'D1', ticket: 'x' }, 'ticket 只读,不能填写', 'ticket is read-only'],
    [{ device: 'D1', other: 1 }, '表单没有字段 other', 'The form has no field other'],
  ])('refuses %j naming the field', (input, zh, en) => {
    expect(formValuesProblem(fields, input)).toEqual({ problem: { zh, en } });
  });

  it('lets a rejection leave required fields empty', () => {
    expect(formValuesProblem(fields, {}, false)).toEqual({ values: { urgent: false } });
  });
});

import { describe, expect, it } from 'vitest';
import { checkField } from '../../engine/validate';
import { enumerationField, enumLabelOf, enumLabelsOf, modelValueLabel, type EnumeratedField } from './model-enum';

const model: EnumeratedField[] = [
  { fieldKey: 'temperature', enumeration: null },
  {
    fieldKey: 'program',
    enumeration: [
      { value: '1', zh: '134℃ 标准', en: '134 °C standard' },
      { value: '2', zh: '121℃ 标准', en: '121 °C standard' },
    ],
  },
  { fieldKey: 'faultCode', enumeration: [{ value: 'E04', zh: '余氯不足', en: 'Low residual chlorine' }] },
];

describe('modelValueLabel', () => {
  it('names an enumerated value in the language asked, whether it came as a number or as decimal text', () => {
    expect(modelValueLabel(model, 'program', 1, 'zh')).toBe('134℃ 标准');
    expect(modelValueLabel(model, 'program', 1, 'en')).toBe('134 °C standard');
    // The IoT list keeps numbers as NUMERIC text with six decimals.
    expect(modelValueLabel(model, 'program', '2.000000', 'en')).toBe('121 °C standard');
    expect(modelValueLabel(model, 'faultCode', ' E04 ', 'zh')).toBe('余氯不足');
  });

  it('falls back to the value itself: unnamed values, fields without an enumeration, unknown fields', () => {
    expect(modelValueLabel(model, 'program', 9, 'zh')).toBe('9');
    expect(modelValueLabel(model, 'program', 1.5, 'zh')).toBe('1.5');
    expect(modelValueLabel(model, 'temperature', 134.2, 'en')).toBe('134.2');
    expect(modelValueLabel(model, 'nope', 'x', 'en')).toBe('x');
    expect(modelValueLabel(model, 'program', null, 'zh')).toBe('');
    expect(modelValueLabel([], 'program', 1, 'zh')).toBe('1');
  });

  it('labels only the named values of a row of values, both languages', () => {
    expect(enumLabelsOf(model, { program: 2, temperature: 121, faultCode: 'E09' })).toEqual({
      program: { zh: '121℃ 标准', en: '121 °C standard' },
    });
    expect(enumLabelsOf(model, null)).toEqual({});
    expect(enumLabelOf(model, 'faultCode', 'E04')).toEqual({ zh: '余氯不足', en: 'Low residual chlorine' });
  });
});

describe('the enumeration column', () => {
  it('accepts unique values with both labels and refuses repeats, blanks and long labels, in both languages', () => {
    expect(checkField(enumerationField, [{ value: '1', zh: '灭菌', en: 'Sterilising' }], 'zh')).toBeUndefined();
    expect(checkField(enumerationField, null, 'zh')).toBeUndefined();
    const twice = [
      { value: '1', zh: '灭菌', en: 'Sterilising' },
      { value: '1.0', zh: '干燥', en: 'Drying' },
      { value: '1', zh: '干燥', en: 'Drying' },
    ];
    expect(checkField(enumerationField, twice, 'zh')).toBe('枚举值中的 [2].value 与第 1 项重复');
    expect(checkField(enumerationField, twice, 'en')).toBe('Enumeration: [2].value repeats item 1');
    expect(checkField(enumerationField, [{ value: '3', zh: '', en: 'Drying' }], 'zh')).toBe(
      '枚举值中的 [0].zh 不能为空',
    );
    expect(checkField(enumerationField, [{ value: '3', zh: '干燥' }], 'en')).toBe('Enumeration: [0].en is required');
    expect(checkField(enumerationField, [{ value: '3', zh: '干燥', en: 'x'.repeat(65) }], 'en')).toBe(
      'Enumeration: [0].en is at most 64 characters',
    );
  });
});

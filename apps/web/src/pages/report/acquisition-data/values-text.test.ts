import { describe, expect, it } from 'vitest';
import { valuesText } from './values-text';

describe('valuesText', () => {
  const labels = {
    phase: { zh: '加药', en: 'Dosing' },
    faultCode: { zh: '余氯传感器异常', en: 'Chlorine sensor fault' },
  };

  it('names enumerated values in the interface language and keeps the value beside the name', () => {
    const values = { phase: 1, ph: 7.2, faultCode: 104 };
    expect(valuesText(values, labels, 'zh')).toBe('phase: 加药 (1), ph: 7.2, faultCode: 余氯传感器异常 (104)');
    expect(valuesText(values, labels, 'en')).toBe('phase: Dosing (1), ph: 7.2, faultCode: Chlorine sensor fault (104)');
  });

  it('shows plain values when the reply names none, and nothing for a report without values', () => {
    expect(valuesText({ phase: 1 }, undefined, 'zh')).toBe('phase: 1');
    expect(valuesText(null, labels, 'zh')).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { ageNow, ageText, durationText, formatValue, isStale, valueName, type Translate } from './format';

/** Echoes the key and count, so the tests read which text was chosen. */
const t: Translate = (key, options) => (options?.count !== undefined ? `${key}:${String(options.count)}` : key);

describe('IoT value formatting', () => {
  it('shows numbers with the field precision, booleans as yes/no and missing values as null', () => {
    expect(formatValue({ value: 42.1234, dataType: 'float', precision: 2 }, t)).toBe('42.12');
    expect(formatValue({ value: 7, dataType: 'float', precision: 1 }, t)).toBe('7.0');
    expect(formatValue({ value: 3, dataType: 'int', precision: 2 }, t)).toBe('3');
    expect(formatValue({ value: 1, dataType: 'bool', precision: 0 }, t)).toBe('live.yes');
    expect(formatValue({ value: 0, dataType: 'bool', precision: 0 }, t)).toBe('live.no');
    expect(formatValue({ value: 'RUN', dataType: 'enum', precision: 0 }, t)).toBe('RUN');
    expect(formatValue({ value: null, dataType: 'float', precision: 2 }, t)).toBeNull();
  });

  it('says ages in seconds, minutes, hours and days', () => {
    expect(ageText(0.4, t)).toBe('live.now');
    expect(ageText(3, t)).toBe('age.seconds:3');
    expect(ageText(125, t)).toBe('age.minutes:2');
    expect(ageText(7200, t)).toBe('age.hours:2');
    expect(ageText(3 * 86_400, t)).toBe('age.days:3');
  });

  it('ages a value by the time since the reply, never backwards', () => {
    expect(ageNow(3, 10_000, 12_000)).toBe(5);
    expect(ageNow(3, 10_000, 9_000)).toBe(3);
    expect(ageNow(null, 10_000, 12_000)).toBeNull();
  });

  it('dims values older than the product inactivity, and any older than ten minutes', () => {
    expect(isStale(31, 30)).toBe(true);
    expect(isStale(29, 30)).toBe(false);
    expect(isStale(601, 3600)).toBe(true);
    expect(isStale(599, undefined)).toBe(false);
    expect(isStale(null, 30)).toBe(false);
  });

  it('names bucket widths', () => {
    expect(durationText(30, t)).toBe('unit.s:30');
    expect(durationText(300, t)).toBe('unit.min:5');
    expect(durationText(7200, t)).toBe('unit.h:2');
  });
});

describe('names of enumerated values on the live page', () => {
  const phase = {
    field: 'phase',
    enumeration: [
      { value: '3', zh: '灭菌', en: 'Sterilising' },
      { value: '5', zh: '干燥', en: 'Drying' },
    ],
  };

  it('names a value the field declares, in the interface language', () => {
    expect(valueName({ ...phase, value: 3 }, 'zh')).toBe('灭菌');
    expect(valueName({ ...phase, value: 3 }, 'en')).toBe('Sterilising');
  });

  it('leaves other values, no value and fields without names to formatValue', () => {
    expect(valueName({ ...phase, value: 4 }, 'zh')).toBeUndefined();
    expect(valueName({ ...phase, value: null }, 'zh')).toBeUndefined();
    expect(valueName({ field: 'temp', value: 3, enumeration: [] }, 'zh')).toBeUndefined();
  });
});

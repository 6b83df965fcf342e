import { describe, expect, it } from 'vitest';
import { addDays } from '../../engine/calendar-day';
import { validateSubmit } from '../../engine/validate';
import { registryProblems } from '../registry';
import { articleResource } from './article';
import { carResource } from './car';
import { expiryDateOf, PACK_MATERIALS, packMaterialDictionary, validityDaysOf } from './pack-material';

describe('pack shelf lives (WS 310.2)', () => {
  it('gives textile 14 days, 7 without climate control, paper bag 30, the others 180', () => {
    expect([1, 2, 3, 4, 5].map((m) => validityDaysOf(m, true))).toEqual([14, 30, 180, 180, 180]);
    expect([1, 2, 3, 4, 5].map((m) => validityDaysOf(String(m), false))).toEqual([7, 30, 180, 180, 180]);
    expect(validityDaysOf(9, true)).toBeUndefined();
    expect(validityDaysOf(undefined, true)).toBeUndefined();
  });

  it('dates the expiry from the pack date across months, years and leap days', () => {
    expect(expiryDateOf('2026-11-01', 1, true)).toBe('2026-11-15');
    expect(expiryDateOf('2026-12-20', 1, false)).toBe('2026-12-27');
    expect(expiryDateOf('2026-12-20', 2, true)).toBe('2027-01-19');
    expect(expiryDateOf('2028-02-15', 1, true)).toBe('2028-02-29');
    expect(expiryDateOf('', 1, true)).toBeNull();
    expect(expiryDateOf('2026-02-30', 1, true)).toBeNull();
    expect(expiryDateOf('2026-11-01', 0, true)).toBeNull();
    expect(addDays('9999-12-31', 1)).toBeUndefined();
  });

  it('seeds the dictionary from the same list', () => {
    expect(packMaterialDictionary.entries.map(([key]) => Number(key))).toEqual(PACK_MATERIALS.map((m) => m.key));
  });
});

describe('derived fields through validateSubmit', () => {
  const body = { code: 'A', barCode: 'A', name: 'n', category: 1, packMaterial: 2, packDate: '2026-01-31' };

  it('computes them on add and never takes them from the body', () => {
    const checked = validateSubmit(articleResource, { ...body, expiryDate: '2099-01-01', validityDays: 1 }, true);
    expect(checked.errors).toEqual({});
    expect(checked.values).toMatchObject({ validityDays: 30, expiryDate: '2026-03-02' });
  });

  it('recomputes an update from the stored row only when a source field is sent', () => {
    const stored = { ...body, climateControlled: true, validityDays: 30, expiryDate: '2026-03-02' };
    expect(validateSubmit(articleResource, { packMaterial: 1 }, false, 'zh', stored).values).toMatchObject({
      validityDays: 14,
      expiryDate: '2026-02-14',
    });
    expect(validateSubmit(articleResource, { name: 'x' }, false, 'zh', stored).values).not.toHaveProperty('expiryDate');
    // Without the stored row (the first, body-only check of an update) nothing is guessed.
    expect(validateSubmit(articleResource, { packMaterial: 1 }, false).values).not.toHaveProperty('expiryDate');
  });

  it('the registry refuses a derived field from an unknown field and a match with an unknown field', () => {
    const broken = {
      ...articleResource,
      code: 'broken_article',
      table: 'broken_article',
      fields: {
        ...articleResource.fields,
        expiryDate: { ...articleResource.fields.expiryDate, derive: { from: ['nope'], value: () => null } },
      },
    };
    const car = {
      ...carResource,
      code: 'broken_car',
      table: 'broken_car',
      menu: undefined,
      fields: {
        ...carResource.fields,
        line: {
          ...carResource.fields.line,
          reference: { ...carResource.fields.line.reference, matches: { field: 'base', targetField: 'nope' } },
        },
      },
    };
    expect(registryProblems([broken, car])).toEqual([
      'broken_article.expiryDate is derived from nope, which is not a field',
      'broken_car.line matches base with a field its target does not have',
    ]);
  });
});

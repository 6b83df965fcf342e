import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  clientResource,
  dataScopeResource,
  datasourceResource,
  menuResource,
  regionResource,
  type FieldDef,
} from '@mes/contracts';
import {
  addFormValues,
  arrayToIds,
  fieldPresence,
  idsToArray,
  rowFormValues,
  submitBody,
  toControlValue,
  toWireValue,
} from './form-values';

describe('comma-joined ids', () => {
  it('split into arrays and join back', () => {
    expect(idsToArray('1, 2,,3')).toEqual(['1', '2', '3']);
    expect(idsToArray('')).toEqual([]);
    expect(idsToArray(undefined)).toEqual([]);
    expect(idsToArray(['4', 5])).toEqual(['4', '5']);
    expect(arrayToIds(['1', ' 2 ', ''])).toBe('1,2');
    expect(arrayToIds(undefined)).toBe('');
  });
  it('multi tree pickers hold arrays and submit comma lists', () => {
    const field = dataScopeResource.fields.scopeValue;
    expect(toControlValue(field, '11,12')).toEqual(['11', '12']);
    expect(toWireValue(field, ['11', '12'])).toBe('11,12');
    expect(toWireValue(field, [])).toBe('');
  });
});

describe('control values', () => {
  const when: FieldDef = { kind: 'datetime', label: { zh: '时间', en: 'When' } };
  it('dates are dayjs in the form and yyyy-MM-dd HH:mm:ss on the wire', () => {
    const value = toControlValue(when, '2024-05-06 07:08:09');
    expect(dayjs.isDayjs(value)).toBe(true);
    expect(toWireValue(when, value)).toBe('2024-05-06 07:08:09');
    expect(toControlValue(when, 'nonsense')).toBeUndefined();
  });
  it('choices are strings in the form and numbers for number fields', () => {
    const category = menuResource.fields.category;
    expect(toControlValue(category, 1)).toBe('1');
    expect(toWireValue(category, '2')).toBe(2);
    expect(toWireValue(category, undefined)).toBe('');
  });
  it('the root parent 0 shows as nothing chosen', () => {
    expect(toControlValue(menuResource.fields.parentId, '0')).toBeUndefined();
    expect(toControlValue(menuResource.fields.parentId, '42')).toBe('42');
  });
  it('secrets are never pre-filled', () => {
    expect(toControlValue(datasourceResource.fields.password, 'x')).toBeUndefined();
  });
});

describe('form values', () => {
  it('add starts from defaults, then pre-filled values', () => {
    const values = addFormValues(menuResource.fields, { parentId: '99' });
    expect(values.parentId).toBe('99');
    expect(values.category).toBe('1');
    expect(values.sort).toBe(0);
  });
  it('edit loads the row', () => {
    const values = rowFormValues(menuResource.fields, { id: '1', name: '系统管理', category: 1, parentId: '0' });
    expect(values).toMatchObject({ name: '系统管理', category: '1', parentId: undefined });
  });
});

describe('submitBody', () => {
  it('sends the submittable fields and extra pre-filled keys', () => {
    const body = submitBody(
      regionResource.fields,
      { code: '11', name: 'X', regionLevel: '1', provinceName: 'ignored' },
      true,
      { extra: 'e', name: 'overridden by the form' },
    );
    expect(body).toMatchObject({ code: '11', name: 'X', regionLevel: 1, extra: 'e' });
    expect(body).not.toHaveProperty('provinceName');
  });
  it('create-only fields are not sent on edit; an empty secret on edit keeps the stored one', () => {
    expect(submitBody(regionResource.fields, { code: '11', name: 'X' }, false)).not.toHaveProperty('code');
    expect(submitBody(clientResource.fields, { clientSecret: '' }, false)).not.toHaveProperty('clientSecret');
    expect(submitBody(clientResource.fields, { clientSecret: '' }, true)).toHaveProperty('clientSecret', '');
  });
});

describe('fieldPresence', () => {
  it('hides form:false and secrets when viewing, disables read-only and create-only on edit', () => {
    expect(fieldPresence(regionResource.fields.ancestors, 'add')).toBe('hidden');
    expect(fieldPresence(regionResource.fields.code, 'add')).toBe('edit');
    expect(fieldPresence(regionResource.fields.code, 'edit')).toBe('disabled');
    expect(fieldPresence(datasourceResource.fields.password, 'edit')).toBe('edit');
    expect(fieldPresence(datasourceResource.fields.password, 'view')).toBe('hidden');
    expect(fieldPresence({ ...regionResource.fields.name, form: 'readonly' }, 'edit')).toBe('disabled');
    expect(fieldPresence({ kind: 'secret', label: { zh: '密码', en: 'P' }, form: 'create' }, 'edit')).toBe('hidden');
  });
});

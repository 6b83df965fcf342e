import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  articleResource,
  clientResource,
  dataScopeResource,
  datasourceResource,
  lineResource,
  menuResource,
  OssCategory,
  ossResource,
  regionResource,
  reportTemplateResource,
  type FieldDef,
} from '@mes/contracts';
import {
  addFormValues,
  arrayToIds,
  childFormValues,
  childSubmitBody,
  newChildRow,
  dependentsOf,
  derivedFormValues,
  fieldPresence,
  idsToArray,
  rowFormValues,
  submitBody,
  toControlValue,
  toWireValue,
  wireRow,
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
    expect(fieldPresence(regionResource.fields.ancestors, 'add', {})).toBe('hidden');
    expect(fieldPresence(regionResource.fields.code, 'add', {})).toBe('edit');
    expect(fieldPresence(regionResource.fields.code, 'edit', {})).toBe('disabled');
    expect(fieldPresence(datasourceResource.fields.password, 'edit', {})).toBe('edit');
    expect(fieldPresence(datasourceResource.fields.password, 'view', {})).toBe('hidden');
    expect(fieldPresence({ ...regionResource.fields.name, form: 'readonly' }, 'edit', {})).toBe('disabled');
    // Adding: a field only the server fills is left out, one with a stated default shows it.
    expect(fieldPresence({ ...regionResource.fields.name, form: 'readonly' }, 'add', {})).toBe('hidden');
    expect(fieldPresence({ ...regionResource.fields.name, form: 'readonly', default: 'x' }, 'add', {})).toBe(
      'disabled',
    );
    expect(fieldPresence(articleResource.fields.expiryDate, 'add', {})).toBe('disabled');
    expect(fieldPresence({ kind: 'secret', label: { zh: '密码', en: 'P' }, form: 'create' }, 'edit', {})).toBe(
      'hidden',
    );
  });

  it('leaves a field saved by its own route out of every dialog and of the submit', () => {
    const layout = reportTemplateResource.fields.layout;
    for (const mode of ['add', 'edit', 'view'] as const) expect(fieldPresence(layout, mode, {})).toBe('hidden');
    const values = { name: '月报', source: 'warning', layout: { schemas: [] } };
    expect(submitBody(reportTemplateResource.fields, values, true)).not.toHaveProperty('layout');
    expect(submitBody(reportTemplateResource.fields, values, false)).not.toHaveProperty('layout');
  });
});

describe('fields that depend on another field', () => {
  const oss = ossResource.fields;

  it('show only while their condition holds on the form’s current values', () => {
    // The select holds the provider as text; the row carries it as the server receives it.
    const minio = wireRow(oss, { category: String(OssCategory.minio) });
    expect(minio.category).toBe(OssCategory.minio);
    expect(fieldPresence(oss.endpoint, 'add', minio)).toBe('edit');
    expect(fieldPresence(oss.endpoint, 'add', wireRow(oss, { category: String(OssCategory.local) }))).toBe('hidden');
    expect(fieldPresence(oss.endpoint, 'add', wireRow(oss, {}))).toBe('hidden');
    expect(fieldPresence(oss.ossCode, 'add', wireRow(oss, {}))).toBe('edit');
  });

  it('are left out of the body while hidden', () => {
    const typed = { category: String(OssCategory.local), ossCode: 'disk', endpoint: 'http://x', bucketName: 'b' };
    const body = submitBody(oss, typed, true);
    expect(body).toMatchObject({ category: OssCategory.local, ossCode: 'disk' });
    expect(body).not.toHaveProperty('endpoint');
    expect(body).not.toHaveProperty('bucketName');
    expect(submitBody(oss, { ...typed, category: String(OssCategory.minio) }, true)).toHaveProperty(
      'endpoint',
      'http://x',
    );
  });

  it('are found from the field they depend on, to be checked again when it changes', () => {
    expect(dependentsOf(oss, ['category'])).toEqual([
      'endpoint',
      'accessKey',
      'secretKey',
      'bucketName',
      'appId',
      'region',
    ]);
    expect(dependentsOf(oss, ['remark'])).toEqual([]);
  });
});

describe('field kinds of issue 13 in the form', () => {
  const label = { zh: '字段', en: 'Field' };

  it('a boolean is a switch: false when unset, sent as true / false', () => {
    const flag: FieldDef = { kind: 'boolean', label };
    expect(toControlValue(flag, undefined)).toBe(false);
    expect(toControlValue(flag, true)).toBe(true);
    expect(toWireValue(flag, true)).toBe(true);
    expect(toWireValue(flag, undefined)).toBe(false);
  });

  it('a day is a date picker and goes back as the same yyyy-MM-dd', () => {
    const day: FieldDef = { kind: 'date', label };
    const held = toControlValue(day, '2026-03-01');
    expect(dayjs.isDayjs(held)).toBe(true);
    expect(toWireValue(day, held)).toBe('2026-03-01');
    expect(toWireValue(day, dayjs('2026-12-31T23:59:00'))).toBe('2026-12-31');
  });

  it('an exact decimal stays text, never a float', () => {
    const price: FieldDef = { kind: 'decimal', label, precision: 30, scale: 10 };
    expect(toControlValue(price, '12345678901234567890.0123456789')).toBe('12345678901234567890.0123456789');
    expect(toWireValue(price, '12.50')).toBe('12.50');
  });

  it('a JSON value is edited as indented text and sent as the value', () => {
    const spec: FieldDef = { kind: 'json', label, schema: { type: 'object' } };
    const text = toControlValue(spec, { mode: 'auto', limits: [1] });
    expect(text).toBe('{\n  "mode": "auto",\n  "limits": [\n    1\n  ]\n}');
    expect(toWireValue(spec, text)).toEqual({ mode: 'auto', limits: [1] });
    // Not JSON: sent as typed, so the shared check names the problem.
    expect(toWireValue(spec, '{oops')).toBe('{oops');
  });
});

describe('child rows in the form', () => {
  const stopFields = lineResource.children?.stops?.resource().fields ?? {};

  it('holds a detail’s rows in order with their ids, choices as option values', () => {
    const held = childFormValues(lineResource, {
      stops: [
        { id: '71', lineId: '9', deptId: '11', direction: 2, sort: 1, deptIdName: '一诊所' },
        { id: '72', lineId: '9', deptId: '12', direction: 1, sort: 1 },
      ],
    });
    expect(held.stops?.map((r) => [r.key, r.id, r.deptId, r.direction])).toEqual([
      ['id-71', '71', '11', '2'],
      ['id-72', '72', '12', '1'],
    ]);
    expect(childFormValues(lineResource, {})).toEqual({ stops: [] });
  });

  it('sends every row, in the order held, with ids only for stored rows and no engine-owned fields', () => {
    const added = { ...newChildRow(stopFields), deptId: '13', direction: '1' };
    const body = childSubmitBody(lineResource, {
      stops: [added, { key: 'id-71', id: '71', deptId: '11', direction: '2', sort: 5, lineId: '9' }],
    });
    expect(body).toEqual({
      stops: [
        { deptId: '13', direction: 1 },
        { id: '71', deptId: '11', direction: 2 },
      ],
    });
    expect(childSubmitBody(lineResource, {})).toEqual({ stops: [] });
  });
});

describe('derived fields in the form', () => {
  const fields = articleResource.fields;

  it('shows the expiry as soon as the material or the pack date changes, by the server’s rule', () => {
    const values = addFormValues(fields, { packMaterial: 1, packDate: '2026-11-01' });
    const derived = derivedFormValues(fields, ['packMaterial'], wireRow(fields, values));
    expect(derived.validityDays).toBe(14);
    expect(dayjs.isDayjs(derived.expiryDate) && derived.expiryDate.format('YYYY-MM-DD')).toBe('2026-11-15');
    const uncontrolled = wireRow(fields, { ...values, climateControlled: false });
    expect(derivedFormValues(fields, ['climateControlled'], uncontrolled).validityDays).toBe(7);
    // Without a pack date there is no expiry; other changes leave the derived fields alone.
    expect(
      derivedFormValues(fields, ['packDate'], wireRow(fields, { ...values, packDate: undefined })).expiryDate,
    ).toBe(undefined);
    expect(derivedFormValues(fields, ['name'], wireRow(fields, values))).toEqual({});
  });
});

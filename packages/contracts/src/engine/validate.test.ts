import { describe, expect, it } from 'vitest';
import * as resources from '../definitions';
import {
  paramResource,
  dictResource,
  userResource,
  postResource,
  clientResource,
  ossResource,
  OssCategory,
  smsResource,
  SmsCategory,
  socialSourceResource,
  lineResource,
  reportTemplateResource,
  REPORT_LAYOUT_PATH,
} from '../definitions';
import { controlOf, isListed, optionSourceOf, type FieldDef, type ResourceDef } from './define';
import {
  checkField,
  isEmptyValue,
  isFieldRequired,
  isFieldVisible,
  validateChildren,
  validateSubmit,
} from './validate';

const f = <D extends ResourceDef>(def: D, name: string) => {
  const field = def.fields[name];
  if (!field) throw new Error(`no field ${name}`);
  return field;
};

describe('emptiness (spec section 5)', () => {
  it('treats null, empty string, empty array and empty object as empty; booleans and numbers are not', () => {
    for (const v of [null, undefined, '', '  ', [], {}]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [0, false, true, 'a', [1], { a: 1 }]) expect(isEmptyValue(v)).toBe(false);
  });
});

describe('field rules and their messages', () => {
  it('uses the spec’s messages for the param form', () => {
    expect(checkField(f(paramResource, 'paramName'), '', 'zh')).toBe('请输入参数名称');
    expect(checkField(f(paramResource, 'paramKey'), '', 'zh')).toBe('请输入参数键名');
    expect(checkField(f(paramResource, 'paramValue'), '', 'zh')).toBe('请输入参数键值');
    expect(checkField(f(paramResource, 'remark'), '', 'zh')).toBeUndefined();
  });

  it('uses the spec’s messages for the dictionary form', () => {
    expect(checkField(f(dictResource, 'code'), '', 'zh')).toBe('请输入字典编号');
    expect(checkField(f(dictResource, 'dictValue'), '', 'zh')).toBe('请输入字典名称');
    expect(checkField(f(dictResource, 'sort'), '', 'zh')).toBe('请输入字典排序');
    expect(checkField(f(dictResource, 'dictKey'), '', 'zh')).toBe('请输入字典键值');
    expect(checkField(f(dictResource, 'isSealed'), null, 'zh')).toBe('请选择字典是否封存');
    expect(checkField(f(dictResource, 'isSealed'), 2, 'zh')).toBe('封存的取值无效');
    expect(checkField(f(dictResource, 'parentId'), '', 'zh')).toBeUndefined();
  });

  it('derives default messages from the label, in both languages', () => {
    expect(checkField(f(postResource, 'postCode'), '', 'zh')).toBe('请输入岗位编号');
    expect(checkField(f(postResource, 'postCode'), '', 'en')).toBe('Please enter code');
    expect(checkField(f(postResource, 'category'), '', 'zh')).toBe('请选择岗位类型');
  });

  it('checks length, numbers, ids, dates and patterns', () => {
    expect(checkField(f(postResource, 'postCode'), 'x'.repeat(13), 'zh')).toBe('岗位编号最长 12 个字符');
    expect(checkField(f(postResource, 'sort'), 'abc', 'zh')).toBe('排序应为整数');
    expect(checkField(f(postResource, 'sort'), 1.5, 'zh')).toBe('排序应为整数');
    expect(checkField(f(postResource, 'sort'), 10_000_000, 'zh')).toBe('排序应在 -999999 到 999999 之间');
    expect(checkField(f(userResource, 'roleId'), '12,abc', 'zh')).toBe('所属角色无效');
    expect(checkField(f(userResource, 'roleId'), ['1', '2'], 'zh')).toBeUndefined();
    expect(checkField(f(userResource, 'birthday'), '2026-13-40', 'zh')).toBe('用户生日的格式应为 yyyy-MM-dd HH:mm:ss');
    expect(checkField(f(userResource, 'birthday'), '2026-01-02 03:04:05', 'zh')).toBeUndefined();
    expect(checkField(f(userResource, 'phone'), '2345678901', 'zh')).toBe('手机号码格式不正确');
    expect(checkField(f(userResource, 'phone'), '13800138000', 'zh')).toBeUndefined();
    expect(checkField(f(clientResource, 'webServerRedirectUri'), 'ftp://x', 'zh')).toBe(
      '回调地址应以 http 或 https 开头',
    );
    expect(checkField(f(clientResource, 'webServerRedirectUri'), 'https://x', 'zh')).toBeUndefined();
  });
});

describe('values of the wrong type or beyond their column', () => {
  const label = { zh: '字段', en: 'Field' };
  const text: FieldDef = { kind: 'string', label, max: 10 };
  const unbounded: FieldDef = { kind: 'string', label };
  const int: FieldDef = { kind: 'int', label };
  const id: FieldDef = { kind: 'id', label };
  const ids: FieldDef = { kind: 'ids', label, max: 40 };
  const when: FieldDef = { kind: 'datetime', label };

  it('refuses JSON numbers, booleans, objects and lists for text fields instead of storing their text', () => {
    for (const value of [12345, 0, true, false, { a: 1 }, ['a', 'b']])
      expect(checkField(text, value, 'zh'), JSON.stringify(value)).toBe('字段应为文本');
    expect(checkField(text, '12345', 'zh')).toBeUndefined();
    expect(validateSubmit(postResource, { postName: 1 }, false).errors).toEqual({ postName: '岗位名称应为文本' });
  });

  it('takes a finite number as its text in a numberAsText field (the family sends dictKey -1), nothing else', () => {
    const key: FieldDef = { kind: 'string', label, max: 3, numberAsText: true };
    expect(checkField(key, -1, 'zh')).toBeUndefined();
    expect(checkField(key, 12345, 'zh')).toBe('字段最长 3 个字符');
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, true, { a: 1 }])
      expect(checkField(key, value, 'zh'), String(value)).toBe('字段应为文本');
    const def = { ...postResource, fields: { ...postResource.fields, postCode: { ...key, max: 12 } } };
    expect(validateSubmit(def, { postCode: -1 }, false).values).toEqual({ postCode: '-1' });
  });

  it('bounds text without a declared max by its varchar(255) column, counting characters as PostgreSQL does', () => {
    expect(checkField(unbounded, 'x'.repeat(255), 'zh')).toBeUndefined();
    expect(checkField(unbounded, 'x'.repeat(256), 'zh')).toBe('字段最长 255 个字符');
    expect(checkField(text, '😀'.repeat(10), 'zh')).toBeUndefined();
    expect(checkField(text, '😀'.repeat(11), 'zh')).toBe('字段最长 10 个字符');
  });

  it('keeps integers within the integer column, and refuses other JSON types', () => {
    expect(checkField(int, 2147483647, 'zh')).toBeUndefined();
    expect(checkField(int, '-2147483648', 'zh')).toBeUndefined();
    expect(checkField(int, 2147483648, 'zh')).toBe('字段应在 -2147483648 到 2147483647 之间');
    expect(checkField(int, '99999999999999999999', 'zh')).toBe('字段应在 -2147483648 到 2147483647 之间');
    for (const value of [true, [1], { n: 1 }, '0x10', '1e3', '1.5', 'abc'])
      expect(checkField(int, value, 'zh'), JSON.stringify(value)).toBe('字段应为整数');
    expect(checkField({ kind: 'decimal', label }, '1e400', 'zh')).toBe('字段应为数字');
  });

  it('takes ids as digits up to 2^63-1, or as exact JSON numbers', () => {
    expect(checkField(id, '9223372036854775807', 'zh')).toBeUndefined();
    expect(checkField(id, 12, 'zh')).toBeUndefined();
    for (const value of ['9223372036854775808', '99999999999999999999', -1, 1.5, 2 ** 60, true, { a: 1 }, '-1'])
      expect(checkField(id, value, 'zh'), JSON.stringify(value)).toBe('字段无效');
    expect(validateSubmit(dictResource, { parentId: 12 }, false).values.parentId).toBe('12');
  });

  it('takes id lists as text or lists of ids, within the column', () => {
    expect(checkField(ids, '1,2', 'zh')).toBeUndefined();
    expect(checkField(ids, [1, '2'], 'zh')).toBeUndefined();
    for (const value of ['1,9223372036854775808', [true], [{ a: 1 }], 12.5, true])
      expect(checkField(ids, value, 'zh'), JSON.stringify(value)).toBe('字段无效');
    expect(checkField(ids, Array.from({ length: 10 }, () => '1000000000').join(','), 'zh')).toBe('字段最长 40 个字符');
  });

  it('takes date-times only as text', () => {
    expect(checkField(when, 20260102, 'zh')).toBe('字段的格式应为 yyyy-MM-dd HH:mm:ss');
    expect(checkField(when, true, 'zh')).toBe('字段的格式应为 yyyy-MM-dd HH:mm:ss');
  });
});

describe('submit validation', () => {
  it('adding needs every required field; updating checks only what is sent', () => {
    const add = validateSubmit(postResource, { postName: 'a' }, true);
    expect(add.errors).toMatchObject({ postCode: '请输入岗位编号' });
    const update = validateSubmit(postResource, { postName: 'b' }, false);
    expect(update.errors).toEqual({});
    expect(update.values).toEqual({ postName: 'b' });
  });

  it('ignores fields the form may not change (no mass assignment)', () => {
    const res = validateSubmit(
      postResource,
      { postCode: 'a', postName: 'b', tenantId: 'x', createUser: '1', isDeleted: 1 },
      true,
    );
    for (const key of ['tenantId', 'createUser', 'isDeleted']) expect(res.values).not.toHaveProperty(key);
    expect(res.values).toMatchObject({ postCode: 'a', postName: 'b' });
    const user = validateSubmit(userResource, { password: 'p', account: 'a' }, false);
    expect(user.values).not.toHaveProperty('password');
  });

  it('never takes a field saved by its own route, adding or updating; lists it only when asked', () => {
    const layout = f(reportTemplateResource, 'layout');
    expect(layout.savedBy).toBe(REPORT_LAYOUT_PATH);
    const body = { name: '月报', source: 'warning', layout: { basePdf: 'BLANK_PDF', schemas: [] } };
    expect(validateSubmit(reportTemplateResource, body, true).values).not.toHaveProperty('layout');
    expect(validateSubmit(reportTemplateResource, { layout: 'not even an object' }, false)).toEqual({
      values: {},
      errors: {},
    });
    expect(isListed(layout)).toBe(false);
    expect(isListed({ ...layout, kind: 'string' })).toBe(false);
    expect(isListed({ ...layout, kind: 'string', list: true })).toBe(true);
  });

  it('normalises numbers, dates and id lists', () => {
    const res = validateSubmit(userResource, { sex: '2', roleId: ['1', ' 2'], birthday: '2026-01-02 00:00:00' }, false);
    expect(res.values.sex).toBe(2);
    expect(res.values.roleId).toBe('1,2');
    expect(res.values.birthday).toBeInstanceOf(Date);
  });
});

describe('fields that depend on another field', () => {
  const minio = {
    category: OssCategory.minio,
    ossCode: 'm1',
    endpoint: 'http://minio.example.com:9000',
    accessKey: 'AK',
    secretKey: 'SK',
    bucketName: 'mes',
  };

  it('requires a provider setting only for the providers that need it, with the field’s own message', () => {
    const noEndpoint = validateSubmit(ossResource, { ...minio, endpoint: '' }, true);
    expect(noEndpoint.errors).toEqual({ endpoint: '请输入资源地址' });
    expect(validateSubmit(ossResource, { ...minio, endpoint: '' }, true, 'en').errors.endpoint).toBe(
      'Please enter endpoint',
    );
    expect(validateSubmit(ossResource, { ...minio, endpoint: undefined }, true).errors.endpoint).toBe('请输入资源地址');
    expect(validateSubmit(ossResource, minio, true).errors).toEqual({});
    // The select holds the category as text; the condition reads it the same way.
    expect(validateSubmit(ossResource, { ...minio, category: '1', endpoint: '' }, true).errors.endpoint).toBe(
      '请输入资源地址',
    );

    const yunpian = { category: SmsCategory.yunpian, smsCode: 'y', templateId: 'T' };
    expect(validateSubmit(smsResource, yunpian, true).errors).toEqual({ secretKey: '请输入SecretKey' });
    expect(validateSubmit(smsResource, { ...yunpian, secretKey: 'k' }, true).errors).toEqual({});
    const tencent = { category: SmsCategory.tencent, smsCode: 't', templateId: 'T', accessKey: 'a', secretKey: 's' };
    expect(validateSubmit(smsResource, tencent, true).errors).toEqual({
      appId: '请输入应用ID',
      signName: '请输入短信签名',
    });

    const oidc = { source: 'corp', name: 'Corp', category: 'oidc', clientId: 'c', clientSecret: 's' };
    expect(Object.values(validateSubmit(socialSourceResource, oidc, true).errors)).toEqual([
      '请输入授权地址',
      '请输入令牌地址',
      '请输入用户信息地址',
    ]);
    expect(validateSubmit(socialSourceResource, { ...oidc, category: 'github' }, true).errors).toEqual({});
  });

  it('checks a conditional field on blur against the row it is typed into', () => {
    const endpoint = ossResource.fields.endpoint;
    expect(checkField(endpoint, '', 'zh', { category: '1' })).toBe('请输入资源地址');
    expect(checkField(endpoint, '', 'zh', { category: '5' })).toBeUndefined();
    // Without the row only the unconditional rules apply.
    expect(checkField(endpoint, '', 'zh')).toBeUndefined();
    expect(isFieldRequired(endpoint, { category: 1 })).toBe(true);
    expect(isFieldRequired(endpoint, { category: '' })).toBe(false);
  });

  it('ignores the value of a field hidden by its condition, and keeps what is stored', () => {
    expect(isFieldVisible(ossResource.fields.endpoint, { category: OssCategory.local })).toBe(false);
    expect(isFieldVisible(ossResource.fields.endpoint, { category: OssCategory.aliyun })).toBe(true);
    const local = validateSubmit(
      ossResource,
      { category: OssCategory.local, ossCode: 'disk', endpoint: 'not a url', accessKey: 'AK' },
      true,
    );
    expect(local.errors).toEqual({});
    expect(local.values).not.toHaveProperty('endpoint');
    expect(local.values).not.toHaveProperty('accessKey');
  });

  it('on update reads the stored row: a changed provider needs its settings, stored or sent', () => {
    const stored = {
      category: OssCategory.local,
      ossCode: 'disk',
      endpoint: '',
      accessKey: '',
      secretKey: '',
      bucketName: '',
    };
    // Before the stored row is known nothing is refused that the stored row could satisfy.
    expect(validateSubmit(ossResource, { category: OssCategory.minio }, false).errors).toEqual({});
    const toMinio = validateSubmit(ossResource, { category: OssCategory.minio }, false, 'zh', stored);
    expect(Object.values(toMinio.errors)).toEqual([
      '请输入资源地址',
      '请输入AccessKey',
      '请输入SecretKey',
      '请输入空间名',
    ]);
    const complete = validateSubmit(ossResource, { ...minio, secretKey: '' }, false, 'zh', {
      ...stored,
      secretKey: 'enc',
    });
    expect(complete.errors).toEqual({});
    expect(complete.values).not.toHaveProperty('secretKey');
    const noSecret = validateSubmit(ossResource, { ...minio, secretKey: '' }, false, 'zh', stored);
    expect(noSecret.errors).toEqual({ secretKey: '请输入SecretKey' });
    // An edit of the remark alone leaves a complete stored row alone.
    expect(validateSubmit(ossResource, { remark: 'x' }, false, 'zh', { ...minio, secretKey: 'enc' }).errors).toEqual(
      {},
    );
  });
});

describe('definitions', () => {
  const isDef = (v: unknown): v is ResourceDef => typeof v === 'object' && v !== null && 'fields' in v;
  const defs: ResourceDef[] = Object.values(resources as Record<string, unknown>).filter(isDef);

  it('name only their own fields in trees, sorts and indexes', () => {
    expect(defs.length).toBeGreaterThan(10);
    for (const def of defs) {
      // The audit columns every audited table has may be sorted on too (newest attachments first).
      const audit = def.audit === false ? [] : ['createTime', 'updateTime'];
      const names = new Set([...Object.keys(def.fields), 'id', 'tenantId', ...audit]);
      if (def.tree) expect(names, def.code).toContain(def.tree.parent);
      for (const s of def.defaultSort ?? []) expect(names, def.code).toContain(s.field);
      for (const ix of def.indexes ?? []) for (const field of ix.fields) expect(names, def.code).toContain(field);
    }
  });

  it('base their conditions on their own fields', () => {
    for (const def of defs)
      for (const [name, field] of Object.entries(def.fields))
        for (const condition of [field.requiredWhen, field.visibleWhen])
          if (condition) {
            expect(Object.keys(def.fields), `${def.code}.${name}`).toContain(condition.field);
            expect(condition.field, `${def.code}.${name}`).not.toBe(name);
          }
  });

  it('have a label in both languages for every field', () => {
    for (const def of defs)
      for (const [name, field] of Object.entries(def.fields)) {
        expect(field.label.zh, `${def.code}.${name}`).not.toBe('');
        expect(field.label.en, `${def.code}.${name}`).not.toBe('');
      }
  });
});

describe('field kinds of issue 13 (the browser and the server run these same checks)', () => {
  const label = { zh: '字段', en: 'Field' };

  it('boolean: true / false (or their text), nothing else; stored as a boolean', () => {
    const flag: FieldDef = { kind: 'boolean', label };
    for (const value of [true, false, 'true', 'false']) expect(checkField(flag, value, 'zh')).toBeUndefined();
    for (const value of [1, 0, 'yes', '1', [true], { a: 1 }])
      expect(checkField(flag, value, 'zh'), JSON.stringify(value)).toBe('字段应为是或否');
    expect(checkField(flag, 'no', 'en')).toBe('Field must be true or false');
    const def = { fields: { flag } } as unknown as ResourceDef;
    expect(validateSubmit(def, { flag: 'false' }, true).values.flag).toBe(false);
    expect(validateSubmit(def, { flag: true }, true).values.flag).toBe(true);
    // Unset and not nullable: the column's default, false.
    expect(validateSubmit(def, { flag: null }, true).values.flag).toBe(false);
  });

  it('date: a real yyyy-MM-dd day, kept as that text', () => {
    const day: FieldDef = { kind: 'date', label };
    for (const value of ['2026-11-24', '2024-02-29', '0001-01-01'])
      expect(checkField(day, value, 'zh')).toBeUndefined();
    for (const value of ['2026-02-29', '2026-13-01', '2026-11-24 10:00:00', '24/11/2026', 20261124, true])
      expect(checkField(day, value, 'zh'), JSON.stringify(value)).toBe('字段的格式应为 yyyy-MM-dd');
    const def = { fields: { day } } as unknown as ResourceDef;
    expect(validateSubmit(def, { day: ' 2026-11-24 ' }, true).values.day).toBe('2026-11-24');
    expect(validateSubmit(def, { day: '' }, true).values.day).toBeNull();
  });

  it('decimal: exact text of the declared scale, from a number or text; too many digits refused', () => {
    const price: FieldDef = { kind: 'decimal', label, precision: 8, scale: 2, range: [-1000, 999999.99] };
    const def = { fields: { price } } as unknown as ResourceDef;
    const stored = (value: unknown) => validateSubmit(def, { price: value }, true).values.price;
    expect(stored('12.5')).toBe('12.50');
    expect(stored(12.5)).toBe('12.50');
    expect(stored('12.500')).toBe('12.50');
    expect(stored('0.1')).toBe('0.10');
    expect(stored(0.1)).toBe('0.10');
    expect(stored('-0')).toBe('0.00');
    expect(stored('+7')).toBe('7.00');
    expect(stored('.5')).toBe('0.50');
    expect(stored('999999.99')).toBe('999999.99');
    expect(checkField(price, '1.005', 'zh')).toBe('字段最多 2 位小数');
    expect(checkField(price, 1.005, 'en')).toBe('Field has at most 2 digits after the point');
    expect(checkField(price, '1000000', 'zh')).toBe('字段的整数部分最多 6 位');
    expect(checkField(price, '-1000.01', 'zh')).toBe('字段应在 -1000 到 999999.99 之间');
    for (const value of ['abc', '1,5', '1.2.3', '.', '', true, [1], { a: 1 }, '1e2', Infinity])
      if (value !== '') expect(checkField(price, value, 'zh'), JSON.stringify(value)).toBe('字段应为数字');
    // Without precision and scale: NUMERIC(18, 2).
    expect(
      validateSubmit({ fields: { p: { kind: 'decimal', label } } } as unknown as ResourceDef, { p: 3 }, true).values.p,
    ).toBe('3.00');
    // A digit-exact value beyond a double's precision survives untouched.
    const wide: FieldDef = { kind: 'decimal', label, precision: 30, scale: 10 };
    const wideDef = { fields: { wide } } as unknown as ResourceDef;
    expect(validateSubmit(wideDef, { wide: '12345678901234567890.0123456789' }, true).values.wide).toBe(
      '12345678901234567890.0123456789',
    );
  });

  it('json: the declared schema, with the path of the bad value in the message, and a size limit', () => {
    const spec: FieldDef = {
      kind: 'json',
      label,
      max: 100,
      schema: {
        type: 'object',
        required: ['mode'],
        additionalProperties: false,
        properties: {
          mode: { type: 'string', enum: ['auto', 'manual'], maxLength: 10 },
          rules: {
            type: 'array',
            maxItems: 2,
            items: {
              type: 'object',
              properties: { limit: { type: 'number', minimum: 0, maximum: 10 }, on: { type: 'boolean' } },
            },
          },
        },
      },
    };
    expect(checkField(spec, { mode: 'auto', rules: [{ limit: 1.5, on: true }] }, 'zh')).toBeUndefined();
    expect(checkField(spec, '{"mode":"manual"}', 'zh')).toBeUndefined();
    expect(checkField(spec, { rules: [] }, 'zh')).toBe('字段中的 mode 不能缺少');
    expect(checkField(spec, { mode: 'auto', rules: [{ limit: 1 }, { limit: 11 }] }, 'zh')).toBe(
      '字段中的 rules[1].limit 不能大于 10',
    );
    expect(checkField(spec, { mode: 'auto', rules: [{ limit: 'x' }] }, 'en')).toBe(
      'Field: rules[0].limit must be a number',
    );
    expect(checkField(spec, { mode: 'auto', rules: [{ on: 1 }] }, 'zh')).toBe('字段中的 rules[0].on 应为布尔值');
    expect(checkField(spec, { mode: 'auto', rules: [{}, {}, {}] }, 'zh')).toBe('字段中的 rules 最多 2 项');
    expect(checkField(spec, { mode: 'auto', 'odd key': 1 }, 'zh')).toBe('字段中的 ["odd key"] 不是可用的属性');
    expect(checkField(spec, { mode: 'slow' }, 'zh')).toBe('字段中的 mode 应为 auto / manual 之一');
    expect(checkField(spec, [1], 'zh')).toBe('字段应为对象');
    expect(checkField(spec, '{oops', 'zh')).toBe('字段不是有效的 JSON');
    expect(checkField(spec, { mode: 'auto', rules: [{ limit: 1 }], pad: 'x'.repeat(100) }, 'zh')).toBe(
      '字段最长 100 个字符',
    );
    const def = { fields: { spec } } as unknown as ResourceDef;
    expect(validateSubmit(def, { spec: '{"mode":"auto"}' }, true).values.spec).toEqual({ mode: 'auto' });
    expect(validateSubmit(def, { spec: null }, true).values.spec).toBeNull();
  });

  it('json: items unique by a property (compared as text) and text that must not be blank', () => {
    const pairs: FieldDef = {
      kind: 'json',
      label,
      schema: {
        type: 'array',
        uniqueBy: 'value',
        items: { type: 'object', properties: { value: { type: 'string', minLength: 1 }, name: { type: 'string' } } },
      },
    };
    expect(checkField(pairs, [{ value: '1' }, { value: '2' }], 'zh')).toBeUndefined();
    expect(checkField(pairs, [{ value: '1' }, { value: '2' }, { value: ' 1 ' }], 'zh')).toBe(
      '字段中的 [2].value 与第 1 项重复',
    );
    expect(checkField(pairs, [{ value: '7' }, { value: '7' }], 'en')).toBe('Field: [1].value repeats item 1');
    expect(checkField(pairs, [{ value: '  ' }], 'zh')).toBe('字段中的 [0].value 不能为空');
    expect(checkField(pairs, [{ value: '' }], 'en')).toBe('Field: [0].value must not be empty');
  });

  it('json: a value nested deeper than PostgreSQL can parse is refused cleanly, never thrown', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const loose: FieldDef = { kind: 'json', label, schema: { type: 'array' } };
    expect(checkField(loose, deep, 'zh')).toBe('字段的嵌套不能超过 32 层');
    // Shallow enough: accepted.
    let shallow: unknown = 1;
    for (let i = 0; i < 32; i++) shallow = [shallow];
    expect(checkField(loose, shallow, 'zh')).toBeUndefined();
    shallow = [shallow];
    expect(checkField(loose, shallow, 'en')).toBe('Field nests at most 32 levels deep');
  });

  it('reference: the form offers the target rows through its select route, or else its list', () => {
    const base = { title: label, owner: 'tenant', fields: {} } as const;
    const withSelect = { ...base, code: 'a', table: 'a', api: '/x/a', operations: ['list', 'select'] } as ResourceDef;
    const tree = {
      ...base,
      code: 'b',
      table: 'b',
      api: '/x/b',
      tree: { parent: 'parentId', title: 'name' },
    } as ResourceDef;
    const paged = { ...base, code: 'c', table: 'c', api: '/x/c', listRoute: 'page' } as ResourceDef;
    const ref = (to: ResourceDef): FieldDef => ({
      kind: 'reference',
      label,
      reference: { to: () => to, label: 'name' },
    });
    expect(optionSourceOf(ref(withSelect))).toEqual({ url: '/x/a/select', label: 'name', value: 'id' });
    expect(optionSourceOf(ref(tree))).toEqual({ url: '/x/b/list?size=1000', label: 'name', value: 'id' });
    expect(optionSourceOf(ref(paged))).toEqual({ url: '/x/c/page?size=1000', label: 'name', value: 'id' });
    expect(controlOf(ref(withSelect))).toBe('select');
    expect(controlOf(ref(tree))).toBe('tree-select');
    // Declared options win; other kinds keep theirs.
    const items = { items: [{ value: '1', label }] } as const;
    expect(optionSourceOf({ ...ref(paged), options: items })).toBe(items);
    expect(optionSourceOf({ kind: 'string', label })).toBeUndefined();
    expect(controlOf({ kind: 'boolean', label })).toBe('switch');
    expect(controlOf({ kind: 'date', label })).toBe('date');
    expect(controlOf({ kind: 'json', label })).toBe('json');
    expect(isListed({ kind: 'json', label })).toBe(false);
  });

  it('reference: an id of the target, stored as its text; empty is no reference', () => {
    const target = { code: 't', title: label, table: 't', api: '/t', owner: 'tenant', fields: {} } as ResourceDef;
    const machine: FieldDef = { kind: 'reference', label, reference: { to: () => target, label: 'name' } };
    expect(checkField(machine, '9223372036854775807', 'zh')).toBeUndefined();
    expect(checkField(machine, 12, 'zh')).toBeUndefined();
    for (const value of ['abc', -1, 1.5, '9223372036854775808', true, { id: 1 }])
      expect(checkField(machine, value, 'zh'), JSON.stringify(value)).toBe('字段无效');
    expect(checkField({ ...machine, required: true }, '', 'zh')).toBe('请选择字段');
    const def = { fields: { machine } } as unknown as ResourceDef;
    expect(validateSubmit(def, { machine: 12 }, true).values.machine).toBe('12');
    expect(validateSubmit(def, { machine: '' }, true).values.machine).toBeNull();
  });
});

describe('child rows (validateChildren)', () => {
  const stops = lineResource.children?.stops;
  const parent: ResourceDef = {
    ...lineResource,
    children: { stops: { ...(stops as NonNullable<typeof stops>), min: 1, max: 3 } },
  };

  it('checks each row by the child definition, naming the collection and the row', () => {
    const checked = validateChildren(lineResource, { stops: [{ deptId: '11', direction: 1 }, { direction: 2 }] }, true);
    expect(checked.errors).toEqual({ stops: '「站点」第 2 行: 请选择节点' });
    expect(checked.rowErrors).toEqual({ stops: { 1: { deptId: '请选择节点' } } });
    expect(checked.rows).toEqual({});
    const en = validateChildren(lineResource, { stops: [{ deptId: '11', direction: 3 }] }, true, 'en');
    expect(en.errors.stops).toBe('Stops, row 1: Direction must be between 1 and 2');
  });

  it('gives the rows in stored form, with their ids, in the order sent', () => {
    const checked = validateChildren(
      lineResource,
      {
        stops: [
          { deptId: 12, direction: '2', sort: 99, lineId: '5' },
          { id: '7', deptId: '11', direction: 1 },
        ],
      },
      false,
    );
    expect(checked.errors).toEqual({});
    // The parent id and the position are the engine's to set, never the client's.
    expect(checked.rows.stops).toEqual([
      { values: { deptId: '12', direction: 2 } },
      { id: '7', values: { deptId: '11', direction: 1 } },
    ]);
  });

  it('refuses repeated rows, a bad id, too few or too many rows and a value that is not a list', () => {
    const dup = validateChildren(
      lineResource,
      {
        stops: [
          { deptId: '11', direction: 1 },
          { deptId: '11', direction: 2 },
          { deptId: '11', direction: 1 },
        ],
      },
      true,
    );
    expect(dup.errors.stops).toBe('「站点」第 3 行: 节点重复,同一节点在一条线路的同一方向上只能出现一次');
    expect(validateChildren(lineResource, { stops: [{ id: 'x', deptId: '1', direction: 1 }] }, true).errors.stops).toBe(
      '「站点」第 1 行: 编号无效',
    );
    expect(validateChildren(parent, { stops: [] }, true).errors.stops).toBe('「站点」至少 1 行');
    expect(validateChildren(parent, {}, true).errors.stops).toBe('「站点」至少 1 行');
    const four = Array.from({ length: 4 }, (_, i) => ({ deptId: String(i + 1), direction: 1 }));
    expect(validateChildren(parent, { stops: four }, true).errors.stops).toBe('「站点」最多 3 行');
    expect(validateChildren(lineResource, { stops: 'a,b' }, true).errors.stops).toBe('「站点」应为列表');
    expect(validateChildren(lineResource, { stops: ['a'] }, true).errors.stops).toBe('「站点」第 1 行: 格式不正确');
  });

  it('leaves an update that does not send a collection alone, and takes null as no rows', () => {
    expect(validateChildren(lineResource, { name: 'x' }, false)).toEqual({ rows: {}, errors: {}, rowErrors: {} });
    expect(validateChildren(lineResource, { stops: null }, false).rows).toEqual({ stops: [] });
    expect(validateChildren(postResource, { stops: [1] }, true)).toEqual({ rows: {}, errors: {}, rowErrors: {} });
  });
});

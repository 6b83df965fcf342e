import { describe, expect, it } from 'vitest';
import * as resources from '../resources';
import { paramResource, dictResource, userResource, postResource, clientResource } from '../resources';
import type { ResourceDef } from './define';
import { checkField, isEmptyValue, validateSubmit } from './validate';

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

  it('normalises numbers, dates and id lists', () => {
    const res = validateSubmit(userResource, { sex: '2', roleId: ['1', ' 2'], birthday: '2026-01-02 00:00:00' }, false);
    expect(res.values.sex).toBe(2);
    expect(res.values.roleId).toBe('1,2');
    expect(res.values.birthday).toBeInstanceOf(Date);
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
      const names = new Set([...Object.keys(def.fields), 'tenantId', ...audit]);
      if (def.tree) expect(names, def.code).toContain(def.tree.parent);
      for (const s of def.defaultSort ?? []) expect(names, def.code).toContain(s.field);
      for (const ix of def.indexes ?? []) for (const field of ix.fields) expect(names, def.code).toContain(field);
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

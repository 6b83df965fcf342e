import { describe, expect, it } from 'vitest';
import { parseFilterName } from './list-query';

describe('parseFilterName', () => {
  it.each([
    ['createTime_dategt', 'createTime', 'dategt'],
    ['createTime_datelt', 'createTime', 'datelt'],
    ['name_notlike', 'name', 'notlike'],
    ['name_like', 'name', 'like'],
    ['status_notequal', 'status', 'notequal'],
    ['status_equal', 'status', 'equal'],
    ['deptId_null', 'deptId', 'null'],
    ['deptId_notnull', 'deptId', 'notnull'],
    ['code_ignore', 'code', 'ignore'],
    ['code', 'code', undefined],
    ['dict_key', 'dict_key', undefined],
    ['_like', '_like', undefined],
  ])('%s → field %s, operator %s', (name, field, operator) => {
    expect(parseFilterName(name)).toEqual({ field, operator });
  });
});

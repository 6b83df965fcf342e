import { describe, expect, it } from 'vitest';
import { carResource, datasourceResource, lineResource, optionSourceOf } from '@mes/contracts';
import {
  labelMap,
  labelOf,
  matchingOptions,
  optionsFromDict,
  optionsFromItems,
  optionsFromUrl,
  sourceKey,
} from './options';

describe('option sources', () => {
  it('dictionaries map dictKey → dictValue', () => {
    const options = optionsFromDict([
      { dictKey: '1', dictValue: '高层' },
      { dictKey: '2', dictValue: '中层' },
    ]);
    expect(options).toEqual([
      { label: '高层', value: '1' },
      { label: '中层', value: '2' },
    ]);
    expect(labelOf(labelMap(options), 2)).toBe('中层');
  });
  it('fixed items use the interface language', () => {
    const source = datasourceResource.fields.driverClass.options;
    if (!source || !('items' in source)) throw new Error('items expected');
    expect(optionsFromItems(source.items, 'en')).toEqual([{ label: 'PostgreSQL', value: 'org.postgresql.Driver' }]);
  });
  it('picker forests keep their children; entity lists use the named keys', () => {
    const forest = optionsFromUrl([{ title: '系统管理', value: 1, children: [{ title: '用户管理', key: 2 }] }]);
    expect(forest).toEqual([{ label: '系统管理', value: '1', children: [{ label: '用户管理', value: '2' }] }]);
    expect(labelOf(labelMap(forest), '2')).toBe('用户管理');
    const page = optionsFromUrl({ records: [{ roleName: 'admin', id: '9' }] }, 'roleName', 'id');
    expect(page).toEqual([{ label: 'admin', value: '9' }]);
    expect(optionsFromUrl(null)).toEqual([]);
  });
  it('offers only the rows a where holds for; a dropped tree node gives way to its children', () => {
    const where = { field: 'deptCategory', in: [4, 5] };
    const tree = [
      {
        id: '1',
        deptName: '集团',
        deptCategory: 1,
        children: [
          { id: '2', deptName: '基地', deptCategory: 4, children: [{ id: '3', deptName: '诊所', deptCategory: '5' }] },
          { id: '4', deptName: '财务部', deptCategory: 2 },
        ],
      },
    ];
    expect(optionsFromUrl(tree, 'deptName', 'id', where)).toEqual([
      { label: '基地', value: '2', children: [{ label: '诊所', value: '3' }] },
    ]);
    expect(sourceKey({ url: '/d', where })).toBe('url:/d|||{"field":"deptCategory","in":[4,5]}');
  });
  it('labels comma lists, and shows unknown values as they are', () => {
    const map = new Map([
      ['1', 'A'],
      ['2', 'B'],
    ]);
    expect(labelOf(map, '1,2')).toBe('A, B');
    expect(labelOf(map, '3')).toBe('3');
    expect(labelOf(undefined, 5)).toBe('5');
    expect(labelOf(map, null)).toBe('');
  });
  it('caches remote sources per code', () => {
    expect(sourceKey({ dict: 'post_category' })).toBe('dict:post_category');
    expect(sourceKey({ dictBiz: 'x' })).toBe('dictBiz:x');
    expect(sourceKey({ items: [] })).toBeUndefined();
  });
});

describe('references that must match the row', () => {
  it('a car’s line picker offers only the lines of the chosen base, none before a base is chosen', () => {
    const field = carResource.fields.line;
    const source = optionSourceOf(field);
    expect(source).toMatchObject({ url: '/blade-business/line/page?size=1000', label: 'name', match: 'base' });
    if (!source || !('url' in source)) throw new Error('url expected');
    const lines = optionsFromUrl(
      {
        records: [
          { id: '1', name: '苏州线', base: '10' },
          { id: '2', name: '无锡线', base: '20' },
        ],
      },
      source.label,
      source.value,
      source.where,
      source.match,
    );
    expect(matchingOptions(field, lines, { base: '20' })).toEqual([{ label: '无锡线', value: '2', match: '20' }]);
    expect(matchingOptions(field, lines, { base: '' })).toEqual([]);
    // Fields without `matches` keep every option.
    expect(matchingOptions(lineResource.fields.base, lines, {})).toBe(lines);
  });
});

import { describe, expect, it } from 'vitest';
import { menuResource, paramResource, postResource } from '@mes/contracts';
import {
  CREATED_FROM,
  CREATED_TO,
  dropEmpty,
  filterNames,
  initialTableState,
  listParams,
  readTableState,
  sameTableState,
  writeTableState,
} from './list-params';

describe('dropEmpty', () => {
  it('drops undefined, null, blank strings and empty arrays; keeps 0 and trims text', () => {
    expect(dropEmpty({ a: undefined, b: null, c: '', d: '  ', e: [], f: 0, g: ' x ', h: ['1', '2'] })).toEqual({
      f: '0',
      g: 'x',
      h: '1,2',
    });
  });
});

describe('filterNames', () => {
  it('lists the searchable fields and the created-time range names', () => {
    expect(filterNames(postResource)).toEqual(['category', 'postCode', 'postName', CREATED_FROM, CREATED_TO]);
    expect(CREATED_FROM).toBe('createTime_dategt');
    expect(CREATED_TO).toBe('createTime_datelt');
  });
  it('has no created range without audit columns', () => {
    expect(filterNames({ ...paramResource, audit: false })).not.toContain(CREATED_FROM);
  });
});

describe('listParams', () => {
  const state = {
    current: 3,
    size: 30,
    filters: { postCode: 'ceo', [CREATED_FROM]: '2024-01-01 00:00:00' },
    descs: 'postName',
  };
  it('sends page, size, filters and sort; screen parameters win and empty ones drop', () => {
    expect(listParams(state, { deptId: '7', postCode: 'cto', empty: '' }, true)).toEqual({
      current: 3,
      size: 30,
      postCode: 'cto',
      deptId: '7',
      [CREATED_FROM]: '2024-01-01 00:00:00',
      descs: 'postName',
    });
  });
  it('leaves out paging for tree lists and export', () => {
    const params = listParams(state, undefined, false);
    expect(params).not.toHaveProperty('current');
    expect(params).not.toHaveProperty('size');
    expect(params.postCode).toBe('ceo');
  });
});

describe('table state in the URL', () => {
  const names = filterNames(menuResource);
  it('round-trips through the query string and keeps foreign parameters', () => {
    const state = { current: 2, size: 50, filters: { name: '系统', category: '1' }, ascs: 'sort' };
    const search = writeTableState(new URLSearchParams('tab=x&current=9'), state, names);
    expect(search.get('tab')).toBe('x');
    expect(search.get('current')).toBe('2');
    expect(readTableState(search, names)).toEqual({ ...state, descs: undefined });
  });
  it('leaves defaults out and ignores unknown names and bad numbers', () => {
    expect(writeTableState(new URLSearchParams(), initialTableState(), names).toString()).toBe('');
    const read = readTableState(new URLSearchParams('current=-1&size=7&other=1&name='), names);
    expect(read).toEqual({ current: 1, size: 10, filters: {}, ascs: undefined, descs: undefined });
  });
  it('compares states by what the URL would hold', () => {
    const a = { current: 1, size: 10, filters: { name: 'a', code: 'b' } };
    const b = { current: 1, size: 10, filters: { code: 'b', name: 'a' } };
    expect(sameTableState(a, b, names)).toBe(true);
    expect(sameTableState(a, { ...b, current: 2 }, names)).toBe(false);
  });
});

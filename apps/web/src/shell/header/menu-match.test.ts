import { describe, expect, it } from 'vitest';
import { matchMenus } from './menu-match';

const items = [{ label: 'PLC变量' }, { label: '设备PLC' }, { label: 'Plan' }, { label: '用户管理' }];

describe('matchMenus', () => {
  it('matches the start of the name, ignoring case', () => {
    expect(matchMenus(items, 'pl').map((i) => i.label)).toEqual(['PLC变量', 'Plan']);
    expect(matchMenus(items, 'PLC').map((i) => i.label)).toEqual(['PLC变量']);
  });

  it('does not match inside the name', () => {
    expect(matchMenus(items, 'lc')).toEqual([]);
    expect(matchMenus(items, '管理')).toEqual([]);
  });

  it('offers nothing for empty or blank text, and ignores surrounding spaces', () => {
    expect(matchMenus(items, '')).toEqual([]);
    expect(matchMenus(items, '   ')).toEqual([]);
    expect(matchMenus(items, ' 用户 ').map((i) => i.label)).toEqual(['用户管理']);
  });
});

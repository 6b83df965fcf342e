import { describe, expect, it } from 'vitest';
import { buildMenuForest, withoutEmptyGroups, type MenuRowLike } from './menu-tree';

const row = (id: string, parentId: string, sort: number): MenuRowLike => ({
  id,
  parentId,
  code: `c${id}`,
  name: `n${id}`,
  nameEn: '',
  alias: '',
  path: `/p${id}`,
  source: '',
  sort,
  category: 1,
  action: 0,
  isOpen: 1,
  remark: '',
});

describe('buildMenuForest', () => {
  it('nests by parent, sorts siblings by sort then id, and omits empty children', () => {
    const forest = buildMenuForest([
      row('3', '0', 2),
      row('1', '0', 1),
      row('5', '3', 1),
      row('4', '3', 1),
      row('9', '77', 0),
    ]);
    expect(forest.map((n) => n.id)).toEqual(['9', '1', '3']);
    expect(forest[2]?.children?.map((n) => n.id)).toEqual(['4', '5']);
    expect(forest[2]?.hasChildren).toBe(true);
    expect(forest[1]).not.toHaveProperty('children');
  });
});

describe('withoutEmptyGroups', () => {
  it('drops a group none of whose screens the caller holds, and a group left empty by that, keeps screens', () => {
    // 1 = group of 2 (held); 3 = group of 4 (not held); 5 = group of group 3 only; 6 = a screen at the root.
    const parents = new Set(['1', '3', '5']);
    const held = [row('1', '0', 1), row('2', '1', 1), row('3', '5', 1), row('5', '0', 2), row('6', '0', 3)];
    expect(withoutEmptyGroups(held, parents).map((r) => r.id)).toEqual(['1', '2', '6']);
  });
});

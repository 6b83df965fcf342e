import { describe, expect, it } from 'vitest';
import { toForest, toPickerForest } from './forest';

const rows = [
  { id: '1', parentId: '0', name: 'root' },
  { id: '2', parentId: '1', name: 'child' },
  { id: '3', parentId: '2', name: 'grandchild' },
  { id: '4', parentId: '0', name: 'second root' },
  // Its parent is not among the rows (out of the caller's scope): it shows as a root.
  { id: '5', parentId: '99', name: 'orphan' },
];

describe('toForest', () => {
  it('nests rows under their parents, keeps roots and orphans at the top and marks who has children', () => {
    const forest = toForest(rows, 'parentId');
    expect(forest.map((r) => r.id)).toEqual(['1', '4', '5']);
    const [root] = forest;
    expect(root?.hasChildren).toBe(true);
    const child = (root?.children as Record<string, unknown>[])[0];
    expect(child?.id).toBe('2');
    expect((child?.children as Record<string, unknown>[])[0]?.hasChildren).toBe(false);
    expect(forest[1]?.hasChildren).toBe(false);
    expect(forest[1]?.children).toBeUndefined();
  });

  it('leaves the rows it was given unchanged', () => {
    const before = JSON.stringify(rows);
    toForest(rows, 'parentId');
    expect(JSON.stringify(rows)).toBe(before);
  });
});

describe('toPickerForest', () => {
  it('answers picker nodes: id, parentId, title, key and value, nested', () => {
    const [root] = toPickerForest(rows, 'parentId', 'name');
    expect(root).toMatchObject({ id: '1', parentId: '0', title: 'root', key: '1', value: '1', hasChildren: true });
    expect((root?.children as Record<string, unknown>[])[0]).toMatchObject({ id: '2', title: 'child', key: '2' });
    expect(root).not.toHaveProperty('name');
  });
});

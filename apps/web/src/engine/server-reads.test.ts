import { describe, expect, it } from 'vitest';
import { apiKey } from '../api/server-state';
import { DICT_BIZ_ROUTE, DICT_ROUTE, optionQuery } from './use-field-options';
import { listOf } from './use-resource-list';

describe('list answers', () => {
  it('a page gives its records and total', () => {
    expect(
      listOf({ records: [{ id: '1' }], total: '41' as unknown as number, size: 10, current: 1, pages: 5 }),
    ).toEqual({ rows: [{ id: '1' }], total: 41 });
  });

  it('a tree list gives the forest, leaves without an empty children array', () => {
    const { rows, total } = listOf([
      { id: '1', children: [{ id: '2', children: [] }] },
      { id: '3', children: [] },
    ]);
    expect(total).toBe(2);
    expect(rows).toEqual([{ id: '1', children: [{ id: '2' }] }, { id: '3' }]);
  });

  it('no answer is no rows', () => {
    expect(listOf(null)).toEqual({ rows: [], total: 0 });
  });
});

describe('option lists share the cache with the screens', () => {
  it('a dictionary field reads the same entry as a screen reading that dictionary', () => {
    expect(optionQuery({ dict: 'user_type' })?.queryKey).toEqual(apiKey(DICT_ROUTE, { code: 'user_type' }));
    expect(optionQuery({ dictBiz: 'user_type' })?.queryKey).toEqual(apiKey(DICT_BIZ_ROUTE, { code: 'user_type' }));
  });

  it('an endpoint source reads the route itself (the department tree of the user screen)', () => {
    expect(optionQuery({ url: '/blade-system/dept/tree' })?.queryKey).toEqual(apiKey('/blade-system/dept/tree'));
  });

  it('fixed items are not fetched', () => {
    expect(optionQuery({ items: [{ value: 1, label: { zh: '是', en: 'Yes' } }] })).toBeUndefined();
  });

  it('dictionary entries become options, endpoint rows by the named keys', () => {
    const dict = optionQuery({ dict: 'sex' });
    expect(dict?.select?.([{ dictKey: '1', dictValue: '男' }])).toEqual([{ label: '男', value: '1' }]);
    // In English a system dictionary shows its English labels; a business one shows its own words.
    const english = optionQuery({ dict: 'warning_level' }, 'en');
    expect(english?.select?.([{ dictKey: '1', dictValue: '紧急' }])).toEqual([{ label: 'Critical', value: '1' }]);
    const business = optionQuery({ dictBiz: 'warning_level' }, 'en');
    expect(business?.select?.([{ dictKey: '1', dictValue: '紧急' }])).toEqual([{ label: '紧急', value: '1' }]);
    const posts = optionQuery({ url: '/blade-system/post/select', label: 'postName', value: 'id' });
    expect(posts?.select?.([{ id: 7, postName: '经理' }])).toEqual([{ label: '经理', value: '7' }]);
  });
});

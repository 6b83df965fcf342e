import { describe, expect, it } from 'vitest';
import { parseFailedJobsParams } from './failed-jobs-routes';

describe('parseFailedJobsParams', () => {
  it('defaults to the first page of 10 and caps the size like every list', () => {
    expect(parseFailedJobsParams({})).toEqual({ current: 1, size: 10, name: undefined });
    expect(parseFailedJobsParams({ current: '3', size: '5000', name: ' log.prune ' })).toEqual({
      current: 3,
      size: 1000,
      name: 'log.prune',
    });
  });

  it('refuses values no list accepts, with the lists’ messages', () => {
    const refused = (query: Record<string, unknown>) => {
      try {
        parseFailedJobsParams(query);
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(refused({ current: '0' })).toBe('请求参数 current 不正确: 应为 1 到 2147483647 之间的整数');
    expect(refused({ size: ['1', '2'] })).toBe('请求参数 size 不正确: 只能有一个值');
    expect(refused({ name: 'DROP TABLE' })).toBe('请求参数 name 不正确: 应为任务名称,如 log.prune');
    expect(refused({ state: 'failed' })).toBe('不支持的查询条件: state');
  });
});

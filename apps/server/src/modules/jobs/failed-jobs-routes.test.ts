import { PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../platform/http/errors';
import { failedJobsQuery, jobNameFilter } from './failed-jobs-routes';

const dialect = new PgDialect();
const jobs = pgTable('agg_jobs', { name: text('name') });

describe('jobNameFilter', () => {
  it('compares a trimmed job name exactly, and ignores an empty one', () => {
    const condition = jobNameFilter({ name: ' log.prune ' }, jobs.name);
    expect(condition && dialect.sqlToQuery(condition)).toMatchObject({
      sql: '"agg_jobs"."name" = $1',
      params: ['log.prune'],
    });
    expect(jobNameFilter({}, jobs.name)).toBeUndefined();
    expect(jobNameFilter({ name: '  ' }, jobs.name)).toBeUndefined();
  });

  it('refuses what is not one job name, with the lists’ messages', () => {
    const refused = (query: Record<string, unknown>, lang: 'zh' | 'en' = 'zh') => {
      try {
        jobNameFilter(query, jobs.name);
        return 'accepted';
      } catch (e) {
        return (e as HttpError).textIn(lang);
      }
    };
    expect(refused({ name: 'DROP TABLE' })).toBe('请求参数 name 不正确: 应为任务名称,如 log.prune');
    expect(refused({ name: `a${'.b'.repeat(60)}` })).toBe('请求参数 name 不正确: 应为任务名称,如 log.prune');
    expect(refused({ name: ['log.prune', 'store.purge'] })).toBe('请求参数 name 不正确: 只能有一个值');
    // An English caller reads both refusals in English.
    expect(refused({ name: 'DROP TABLE' }, 'en')).toBe(
      'The parameter name is invalid: must be a job name such as log.prune',
    );
    expect(refused({ name: ['log.prune', 'store.purge'] }, 'en')).toBe(
      'The parameter name is invalid: must have one value',
    );
  });
});

describe('failedJobsQuery', () => {
  it('reads failed jobs from both of pg-boss’s tables in the named schema, with the definition’s columns', () => {
    const { sql } = dialect.sqlToQuery(failedJobsQuery('boss_x'));
    expect(sql).toContain(`from "boss_x"."job" where state = 'failed'`);
    expect(sql).toContain(`from "boss_x"."archive" where state = 'failed'`);
    for (const column of ['as id', 'as payload', 'as error', 'retry_count', 'as create_time', 'as fail_time'])
      expect(sql).toContain(column);
  });
});

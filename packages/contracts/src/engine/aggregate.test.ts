import { describe, expect, it } from 'vitest';
import { failedJobsScreen } from '../definitions/monitor/failed-jobs';
import { isReadOnlyScreen, registryProblems, screenButtonsOf } from '../definitions/registry';
import { aggregateViewOf, defineAggregate, isAggregate } from './aggregate';
import { operationsOf } from './define';

const labelled = {
  code: 'keyed',
  title: { zh: '文本键', en: 'Text keyed' },
  api: '/mes/keyed',
  owner: 'platform' as const,
  fields: {},
};

const daily = defineAggregate({
  code: 'daily_output',
  title: { zh: '日产量', en: 'Daily output' },
  api: '/mes/daily-output',
  owner: 'tenant',
  source: { view: 'mes_daily_output_v' },
  menu: { group: 'report', sort: 6, icon: 'fund' },
  fields: { total: { kind: 'int', label: { zh: '合计', en: 'Total' }, sort: true } },
});

describe('defineAggregate', () => {
  it('names the view as its table, has no audit columns, and reads only', () => {
    expect(daily).toMatchObject({ table: 'mes_daily_output_v', audit: false });
    expect(operationsOf(daily)).toEqual(['list', 'detail', 'export']);
    expect(isAggregate(daily)).toBe(true);
    expect(aggregateViewOf(daily)).toBe('mes_daily_output_v');
    expect(isReadOnlyScreen(daily)).toBe(true);
    expect(screenButtonsOf(daily).map((b) => b.code)).toEqual(['daily_output_view', 'daily_output_export']);
  });

  it('gives a query aggregate a table name no relation has', () => {
    expect(failedJobsScreen.table).toBe('query:jobs');
    const keyed = defineAggregate({ ...labelled, source: { query: true, key: 'text' } });
    expect(operationsOf(keyed)).toEqual(['list', 'export']);
    expect(aggregateViewOf(failedJobsScreen)).toBeUndefined();
    expect(isAggregate({})).toBe(false);
  });

  it('is checked by the registry like any definition (one view per aggregate)', () => {
    const twin = defineAggregate({
      code: 'daily_twin',
      title: { zh: '日产量副本', en: 'Daily twin' },
      api: '/mes/daily-twin',
      owner: 'tenant',
      source: { view: 'mes_daily_output_v' },
      fields: {},
    });
    expect(registryProblems([daily, twin])).toContain('table mes_daily_output_v belongs to two definitions');
  });
});

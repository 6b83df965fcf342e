import { describe, expect, it } from 'vitest';
import { defineAggregate, defineResource, defineScreen, menuPathOf, postResource, REGISTRY } from '@mes/contracts';
import { PAGE_FOLDERS, pageModuleKey } from './menu-paths';
import { screenSourceAt } from './screen-lookup';

const gauge = defineResource({
  code: 'gauge',
  title: { zh: '量具', en: 'Gauges' },
  table: 'mes_gauge',
  api: '/mes/gauge',
  owner: 'tenant',
  menu: { group: 'resource', sort: 9, icon: 'tool' },
  fields: { name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 20 } },
});
const board = defineScreen({
  code: 'board',
  title: { zh: '看板', en: 'Board' },
  menu: { group: 'report', sort: 5, icon: 'fund' },
});
/** An aggregate read from a view: a resource like any other to the web app, without writes. */
const dailyOutput = defineAggregate({
  code: 'daily_output',
  title: { zh: '日产量', en: 'Daily output' },
  api: '/mes/daily-output',
  owner: 'tenant',
  source: { view: 'mes_daily_output_v' },
  menu: { group: 'report', sort: 6, icon: 'fund' },
  fields: { total: { kind: 'int', label: { zh: '合计', en: 'Total' } } },
});
const entries = [...REGISTRY, gauge, board, dailyOutput];
const pages = new Set(['../pages/system/user/index.tsx', '../pages/report/board/index.tsx']);

describe('screenSourceAt', () => {
  it('gives a resource defined only by its definition the generic screen', () => {
    expect(screenSourceAt('/resource/gauge', 'gauge', pages, entries)).toEqual({ kind: 'resource', resource: gauge });
    expect(screenSourceAt('/system/post', 'post', pages, entries)).toEqual({
      kind: 'resource',
      resource: postResource,
    });
  });

  it('gives an aggregate the generic screen too, or its page folder when it has one', () => {
    expect(screenSourceAt('/report/daily_output', 'daily_output', pages, entries)).toEqual({
      kind: 'resource',
      resource: dailyOutput,
    });
    // The failed jobs (a query aggregate) keep a page folder: their list answers at its old path.
    expect(screenSourceAt('/monitor/jobs', 'jobs', new Set(['../pages/monitor/jobs/index.tsx']), entries)).toEqual({
      kind: 'page',
      moduleKey: '../pages/monitor/jobs/index.tsx',
    });
  });

  it('prefers the page folder of a screen with behaviour of its own', () => {
    expect(screenSourceAt('/system/user', 'user', pages, entries)).toEqual({
      kind: 'page',
      moduleKey: '../pages/system/user/index.tsx',
    });
    expect(screenSourceAt('/report/board', 'board', pages, entries).kind).toBe('page');
  });

  it('finds the resource by menu code when an administrator moved the menu, and by path otherwise', () => {
    expect(screenSourceAt('/elsewhere/gauges', 'gauge', pages, entries)).toEqual({ kind: 'resource', resource: gauge });
    expect(screenSourceAt('/resource/gauge/index', 'renamed', pages, entries)).toEqual({
      kind: 'resource',
      resource: gauge,
    });
  });

  it('has nothing for a screen without a page folder that is not a resource, or an unknown menu', () => {
    expect(screenSourceAt('/report/board', 'board', new Set(), entries)).toEqual({ kind: 'missing' });
    expect(screenSourceAt('/made/up', 'made_up', pages, entries)).toEqual({ kind: 'missing' });
  });
});

describe('page folders', () => {
  const folders = Object.keys(import.meta.glob('../pages/**/index.tsx'));
  const menuKeys = new Set(REGISTRY.filter((e) => e.menu).map((e) => pageModuleKey(menuPathOf(e) ?? '')));

  it('finds the renamed folders from the family menu URLs, which stay as they were', () => {
    expect(pageModuleKey('/tool/code')).toBe('../pages/tool/code-generator/index.tsx');
    expect(pageModuleKey('/work/work_todo/index')).toBe('../pages/my-work/todo/index.tsx');
    expect(pageModuleKey('/system/user')).toBe('../pages/system/user/index.tsx');
    for (const [url, folder] of PAGE_FOLDERS) {
      expect(folders, url).toContain(`../pages${folder}/index.tsx`);
      expect(menuKeys, url).toContain(`../pages${folder}/index.tsx`);
    }
  });

  it('reaches every page folder below an area from a menu screen (none is left behind by a rename)', () => {
    const areaScreens = folders.filter((key) => key.split('/').length > 4);
    expect(areaScreens.filter((key) => !menuKeys.has(key))).toEqual([]);
  });
});

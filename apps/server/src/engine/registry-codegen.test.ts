import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { definitionsSource, findDefinitions, registryFiles, tablesSource } from './registry-codegen';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mes-registry-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('the registry generator (npm run db:generate)', () => {
  it('has written the registry list and the schema tables for the definitions as they are now', async () => {
    // Fails when a definition file was added, renamed or removed without `npm run db:generate`.
    for (const [file, content] of await registryFiles()) {
      expect(fs.readFileSync(file, 'utf8'), path.basename(file)).toBe(content);
    }
  });

  it('puts a new definition file into the registry and its table into the schema', async () => {
    fs.mkdirSync(path.join(scratch, 'mes'));
    fs.writeFileSync(
      path.join(scratch, 'mes', 'widget.ts'),
      [
        "export const widgetResource = { code: 'widget', title: { zh: '部件', en: 'Widgets' }, table: 'mes_widget',",
        "  api: '/mes/widget', owner: 'tenant', fields: {} };",
        "export const boardScreen = { kind: 'screen', code: 'board', title: { zh: '看板', en: 'Board' },",
        "  menu: { group: 'report', sort: 1, icon: 'fund' } };",
        'export const notADefinition = 42;',
        "export const dailySums = { code: 'daily', title: { zh: '日汇总', en: 'Daily' }, table: 'mes_daily_v',",
        "  api: '/mes/daily', owner: 'tenant', fields: {}, source: { view: 'mes_daily_v' } };",
      ].join('\n'),
    );
    const found = await findDefinitions(scratch);
    expect(found).toEqual([
      { module: 'mes/widget', exportName: 'boardScreen', hasTable: false },
      { module: 'mes/widget', exportName: 'dailySums', hasTable: false },
      { module: 'mes/widget', exportName: 'widgetResource', hasTable: true },
    ]);
    expect(definitionsSource(found)).toContain(
      "import { boardScreen, dailySums, widgetResource } from './mes/widget';",
    );
    expect(definitionsSource(found)).toContain(
      'export const DEFINITIONS = { boardScreen, dailySums, widgetResource } as const;',
    );
    const tables = tablesSource(found);
    expect(tables).toContain('export const widget = resourceTable(DEFINITIONS.widgetResource);');
    expect(tables).not.toContain('board');
    // An aggregate reads its view (made by a migration): no table is generated for it.
    expect(tables).not.toContain('daily');
  });
});

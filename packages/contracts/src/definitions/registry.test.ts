import { describe, expect, it } from 'vitest';
import { buttonCodes } from '../auth/button-codes';
import { defineResource } from '../engine/define';
import { defineScreen, type ResourceMenu } from '../engine/menu-placement';
import { postResource, userResource } from '.';
import {
  menuPathOf,
  REGISTRY,
  registryEntryAt,
  dictionaryEnglishOf,
  registryProblems,
  screenButtonsOf,
  screenScopesOf,
  type RegistryEntry,
} from './registry';

const widgetMenu: ResourceMenu = { group: 'system', sort: 20, icon: 'tool' };
const widget = defineResource({
  code: 'widget',
  title: { zh: '部件', en: 'Widgets' },
  table: 'mes_widget',
  api: '/mes/widget',
  owner: 'tenant',
  menu: widgetMenu,
  fields: { name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 20 } },
});

describe('the registry', () => {
  it('lists every definition once and finds nothing wrong with them', () => {
    expect(registryProblems(REGISTRY)).toEqual([]);
    expect(new Set(REGISTRY).size).toBe(REGISTRY.length);
    expect(REGISTRY).toContain(postResource);
  });

  it('places a screen at its declared path, or under its group by code', () => {
    expect(menuPathOf(userResource)).toBe('/system/user');
    expect(menuPathOf(widget)).toBe('/system/widget');
    expect(registryEntryAt([...REGISTRY, widget], '/system/widget')).toBe(widget);
    expect(registryEntryAt(REGISTRY, '/monitor/log/api')?.code).toBe('log_api');
    expect(registryEntryAt(REGISTRY, '/nowhere')).toBeUndefined();
  });

  it('gives a resource the generic buttons and scopes, then its own', () => {
    expect(screenButtonsOf(userResource).map((b) => b.code)).toEqual([
      'user_add',
      'user_edit',
      'user_delete',
      'user_view',
      'user_export',
      'user_role',
      'user_reset',
      'user_platform',
      'user_unlock',
      'user_audit',
    ]);
    expect(screenScopesOf(postResource)).toEqual([
      { code: 'post:read', name: '岗位管理查询', path: '/api/blade-system/post/{list,page,detail,tree,export}' },
      { code: 'post:write', name: '岗位管理维护', path: '/api/blade-system/post/{submit,remove}' },
    ]);
  });

  it('gives a read-only resource only view and export, and a plain screen only its own', () => {
    const log = REGISTRY.find((e) => e.code === 'log_api') as RegistryEntry;
    expect(screenButtonsOf(log).map((b) => b.code)).toEqual(['log_api_view', 'log_api_export']);
    const board = defineScreen({
      code: 'board',
      title: { zh: '看板', en: 'Board' },
      menu: {
        group: 'report',
        sort: 5,
        icon: 'fund',
        buttons: [{ action: 'print', name: { zh: '打印', en: 'Print' } }],
      },
    });
    expect(screenButtonsOf(board).map((b) => b.code)).toEqual(['board_print']);
    expect(screenScopesOf(board)).toEqual([]);
  });

  it('declares every button the screens show (auth/button-codes.ts)', () => {
    const declared = new Set(REGISTRY.flatMap((e) => screenButtonsOf(e).map((b) => b.code)));
    const shown = Object.values(buttonCodes).flatMap((codes) => Object.values(codes) as string[]);
    expect(shown.filter((code) => !declared.has(code))).toEqual([]);
  });

  it('finds duplicate codes, paths and menu codes, unknown groups and undeclared dictionaries', () => {
    const twin = { ...widget, table: 'mes_widget_2' };
    const clash = defineResource({
      ...widget,
      code: 'widget_add',
      table: 'mes_widget_add',
      menu: { ...widgetMenu, path: '/x' },
    });
    const stray = { ...widget, code: 'stray', table: 'mes_stray', menu: { ...widgetMenu, group: 'nowhere' } };
    const dictless = defineResource({
      ...widget,
      code: 'dictless',
      table: 'mes_dictless',
      menu: { group: 'system', sort: 21, icon: 'tool' },
      fields: { kind: { kind: 'int', label: { zh: '类型', en: 'Kind' }, options: { dict: 'widget_kind' } } },
    });
    const problems = registryProblems([widget, twin, clash, stray as unknown as RegistryEntry, dictless]);
    expect(problems).toEqual(
      expect.arrayContaining([
        'definition code widget is used twice',
        'menu path /system/widget belongs to two screens',
        'menu code widget_add is seeded twice',
        'stray: unknown menu group nowhere',
        'dictless.kind reads the system dictionary widget_kind, which nothing declares',
      ]),
    );
    const layoutField = { kind: 'json', label: { zh: '版式', en: 'Layout' } } as const;
    const ownRoutes = defineResource({
      ...widget,
      fields: {
        inForm: { ...layoutField, savedBy: `${widget.api}/layout`, form: 'readonly' },
        elsewhere: { ...layoutField, savedBy: '/blade-other/layout' },
        fine: { ...layoutField, savedBy: `${widget.api}/design` },
      },
    });
    expect(registryProblems([ownRoutes])).toEqual([
      'widget.inForm is saved by its own route, so it has no form setting',
      `widget.elsewhere is saved by /blade-other/layout, which is not under ${widget.api}`,
    ]);
    const declared = {
      ...dictless,
      menu: {
        ...widgetMenu,
        dictionaries: [{ code: 'widget_kind', name: '部件类型', entries: [['1', '甲', 'A']] as const }],
      },
    };
    expect(registryProblems([declared])).toEqual([]);
  });

  it('asks every Chinese label of a system dictionary for its English, and serves them by code and key', () => {
    const untranslated = defineResource({
      ...widget,
      menu: {
        ...widgetMenu,
        dictionaries: [
          {
            code: 'widget_kind',
            name: '部件类型',
            entries: [
              ['1', '甲', 'A'],
              ['2', '乙'],
              ['3', 'WEB'],
            ] as const,
          },
        ],
      },
    });
    expect(registryProblems([untranslated])).toEqual([
      'system dictionary widget_kind entry 2 (乙) needs an English label',
    ]);
    const english = dictionaryEnglishOf(REGISTRY);
    expect(english.get('warning_level')?.get('1')).toBe('Critical');
    expect(english.get('alarm_rule_type')?.get('concentration')).toBe('Low concentration');
    expect(english.get('user_type')?.get('1')).toBeUndefined();
  });
});

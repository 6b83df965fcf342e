import { describe, expect, it } from 'vitest';
import { defineResource, postResource, REGISTRY, type RegistryEntry } from '@mes/contracts';
import before from '../../test/registry-upgrade.fixture.json';
import { buildSeed, SEED } from './seed-menus';
import { derivedSeedId, isDerivedSeedId } from './seed-ids';

const byId = <R extends { id: string }>(rows: readonly R[]) => new Map(rows.map((r) => [r.id, r]));

const gauge = defineResource({
  code: 'gauge',
  title: { zh: '量具', en: 'Gauges' },
  table: 'mes_gauge',
  api: '/mes/gauge',
  owner: 'tenant',
  menu: {
    group: 'resource',
    sort: 9,
    icon: 'tool',
    buttons: [{ action: 'calibrate', name: { zh: '校准', en: 'Calibrate' } }],
    scopes: [{ action: 'calibrate', name: '量具校准', path: '/api/mes/gauge/calibrate' }],
    dictionaries: [{ code: 'gauge_kind', name: '量具类型', entries: [['1', '卡尺', 'Caliper']] }],
  },
  fields: { name: { kind: 'string', label: { zh: '名称', en: 'Name' }, max: 20 } },
});

describe('seed rows derived from the registry', () => {
  it('are, row for row, what the seed wrote before the registry (same ids, names, paths, sorts)', () => {
    // Rows added since (the failed-jobs monitor, ...) have ids derived from their codes.
    const legacy = <R extends { id: string }>(rows: readonly R[]) => rows.filter((r) => !isDerivedSeedId(r.id));
    expect(legacy(SEED.menus)).toHaveLength(before.menus.length);
    expect(legacy(SEED.apiScopes)).toHaveLength(before.apiScopes.length);
    expect(legacy(SEED.dicts)).toHaveLength(before.dicts.length);
    const menus = byId(SEED.menus);
    for (const old of before.menus) expect(menus.get(old.id), old.code).toEqual(old);
    const scopes = byId(SEED.apiScopes);
    for (const old of before.apiScopes) expect(scopes.get(old.id), old.resourceCode).toEqual(old);
    const dicts = byId(SEED.dicts);
    for (const old of before.dicts) expect(dicts.get(old.id), `${old.code}:${old.dictKey}`).toEqual(old);
    expect([...SEED.platformOnly].filter((id) => !isDerivedSeedId(id)).sort()).toEqual(
      [...before.platformOnlyMenuIds].sort(),
    );
    // The failed-jobs monitor is new: derived ids, and the platform's alone.
    const jobs = SEED.menus.find((m) => m.code === 'jobs');
    expect(jobs && isDerivedSeedId(jobs.id)).toBe(true);
    expect(SEED.platformOnly.has(jobs?.id ?? '')).toBe(true);
  });

  it('keep their ids whatever the order of the definitions', () => {
    const reversed = buildSeed([...REGISTRY].reverse());
    const idOf = (rows: readonly { id: string; code: string }[]) => Object.fromEntries(rows.map((r) => [r.code, r.id]));
    expect(idOf(reversed.menus)).toEqual(idOf(SEED.menus));
  });

  it('give what a definition adds ids derived from its codes, beside the existing rows', () => {
    const seed = buildSeed([...REGISTRY, gauge]);
    const menu = (code: string) => seed.menus.find((m) => m.code === code);
    expect(menu('gauge')).toMatchObject({
      id: derivedSeedId('menu', 'gauge'),
      parentId: menu('resource')?.id,
      path: '/resource/gauge',
      sort: 9,
      category: 1,
    });
    expect(menu('gauge_calibrate')).toMatchObject({ parentId: menu('gauge')?.id, alias: 'calibrate', category: 2 });
    expect(seed.apiScopes.filter((s) => s.menuId === menu('gauge')?.id).map((s) => s.resourceCode)).toEqual([
      'gauge:read',
      'gauge:write',
      'gauge:calibrate',
    ]);
    expect(seed.dicts.filter((d) => d.code === 'gauge_kind').map((d) => d.id)).toEqual([
      derivedSeedId('dict', 'gauge_kind'),
      derivedSeedId('dict', 'gauge_kind', '1'),
    ]);
    const added = seed.menus.filter((m) => !SEED.menus.some((old) => old.id === m.id));
    expect(added.map((m) => m.code).sort()).toEqual(
      ['gauge', 'gauge_add', 'gauge_calibrate', 'gauge_delete', 'gauge_edit', 'gauge_export', 'gauge_view'].sort(),
    );
    expect(added.every((m) => isDerivedSeedId(m.id))).toBe(true);
    // The rows that were there keep their ids.
    expect(byId(seed.menus).get(menu('post')?.id ?? '')?.code).toBe('post');
  });

  it('derive ids that never change and lie in the reserved range', () => {
    // Pinned: a different hash would give an upgraded install a second copy of every new row.
    expect(derivedSeedId('menu', 'gauge')).toBe('109757399722117593');
    expect(derivedSeedId('menu', 'gauge')).not.toBe(derivedSeedId('api-scope', 'gauge'));
    expect(isDerivedSeedId(derivedSeedId('dict', 'x', 'y'))).toBe(true);
    expect(isDerivedSeedId('1000000000000200100')).toBe(false);
  });

  it('refuse a list with faults instead of seeding it', () => {
    const twin: RegistryEntry = { ...postResource, table: 'blade_post_2' };
    expect(() => buildSeed([...REGISTRY, twin])).toThrow(/definition code post is used twice/);
  });
});

import { describe, expect, it } from 'vitest';
import { iconKey, knownIconKey, menuIcon } from './menu-icons';

describe('menu icons', () => {
  it('reads antd and icon-font spellings of a name alike', () => {
    for (const name of ['setting', 'SettingOutlined', 'setting-outlined', 'iconfont icon-setting', 'icon_setting']) {
      expect(iconKey(name), name).toBe('setting');
    }
    expect(iconKey('BarChartOutlined')).toBe('bar-chart');
    expect(iconKey('cloud-upload')).toBe('cloud-upload');
  });

  it('knows the seeded group icons, each a different one', () => {
    const groups = ['setting', 'safety', 'tool', 'cloud', 'bar-chart', 'fund'];
    for (const g of groups) expect(knownIconKey(g), g).toBe(true);
    expect(new Set(groups.map((g) => menuIcon(g, g))).size).toBe(groups.length);
  });

  it('falls back to a stable icon for unknown names, not the same one for every group', () => {
    expect(menuIcon('no-such-icon', 'device')).toBe(menuIcon('', 'device'));
    const seeds = ['device', 'quality', 'warehouse', 'report', 'process', 'energy'];
    expect(new Set(seeds.map((s) => menuIcon(undefined, s))).size).toBeGreaterThan(1);
  });
});

import { describe, expect, it } from 'vitest';
import { contrast, readableShade } from './contrast';
import { themeColors } from './theme-colors';
import { PRESET_COLORS, THEMES } from './themes';

describe('contrast', () => {
  it('matches the WCAG figures for known pairs', () => {
    expect(contrast('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrast('#409EFF', '#FFFFFF')).toBeCloseTo(2.78, 2);
    expect(contrast('#777777', '#FFFFFF')).toBeCloseTo(4.48, 2);
  });

  it('keeps a colour that already reads, and deepens one that does not, keeping its hue', () => {
    expect(readableShade('#722ED1', '#FFFFFF', '#000000')).toBe('#722ED1');
    const deep = readableShade('#409EFF', '#FFFFFF', '#000000');
    expect(contrast(deep, '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
    // Still a blue: blue stays the strongest channel.
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(deep.slice(i, i + 2), 16)) as [number, number, number];
    expect(b).toBeGreaterThan(g);
    expect(g).toBeGreaterThan(r);
  });
});

describe('themeColors', () => {
  it('gives every theme and preset colour a solid white text reads on and a readable text colour', () => {
    for (const theme of THEMES) {
      for (const color of PRESET_COLORS) {
        const c = themeColors(theme, color);
        expect(contrast(c.solid, '#FFFFFF'), `${theme} ${color}`).toBeGreaterThanOrEqual(4.5);
        const surface = c.dark ? '#141414' : '#E8E8E8';
        expect(contrast(c.text, surface), `${theme} ${color}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('keeps the spec colour as the accent; a theme with a hue of its own uses it unless a colour was picked', () => {
    expect(themeColors('theme-vip', '#409EFF').accent).toBe('#409EFF');
    expect(themeColors('theme-hey', '#409EFF').accent).toBe('#3DBD7D');
    expect(themeColors('theme-cool', '#409EFF').accent).toBe('#6A11CB');
    expect(themeColors('theme-hey', '#722ED1').accent).toBe('#722ED1');
    expect(themeColors('theme-dark', '#409EFF').dark).toBe(true);
  });
});

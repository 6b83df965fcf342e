/** WCAG 2.1 colour arithmetic for the theme colours: text must reach 4.5:1 against what it sits on (AA). */

export const AA_TEXT = 4.5;

type Rgb = readonly [r: number, g: number, b: number];

export function parseHex(hex: string): Rgb {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = Number.parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export const toHex = ([r, g, b]: Rgb): string =>
  `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();

/** Relative luminance (WCAG 2.1 definition). */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour itself if `against` already reads on it at AA, otherwise the same hue mixed step by
 * step towards `toward` (black to darken, white to lighten) until it does. Mixing keeps the hue, so
 * a blue stays recognisably the chosen blue, only deeper.
 */
export function readableShade(color: string, against: string, toward: '#000000' | '#FFFFFF'): string {
  const from = parseHex(color);
  const to = parseHex(toward);
  for (let step = 0; step <= 100; step += 2) {
    const t = step / 100;
    const mixed = toHex(from.map((c, i) => c + ((to[i] ?? 0) - c) * t) as unknown as Rgb);
    if (contrast(mixed, against) >= AA_TEXT) return mixed;
  }
  return toward;
}

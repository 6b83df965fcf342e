/** The console's themes (spec section 2); each name is a class on the layout root, styled in themes.css. */
export const THEMES = [
  'theme-default',
  'theme-white',
  'theme-dark',
  'theme-star',
  'theme-smart',
  'theme-iview',
  'theme-vip',
  'theme-cool',
  'theme-d2',
  'theme-hey',
  'theme-lte',
] as const;

export type ThemeName = (typeof THEMES)[number];

export const isThemeName = (name: unknown): name is ThemeName =>
  typeof name === 'string' && (THEMES as readonly string[]).includes(name);

/** Preset swatches of the colour picker; the first is the spec's default. */
export const PRESET_COLORS = [
  '#409EFF',
  '#1890FF',
  '#2F54EB',
  '#722ED1',
  '#6959CD',
  '#CA167E',
  '#F5222D',
  '#FA541C',
  '#FAAD14',
  '#13C2C2',
  '#009688',
  '#52C41A',
] as const;

import { theme as antdTheme, type ThemeConfig } from 'antd';
import { website } from '../../config/website';
import { readableShade } from './contrast';
import type { ThemeName } from './themes';

/**
 * Themes that paint the frame in a hue of their own; their primary buttons, links and checkboxes
 * follow that hue. The other themes use the colour picker's colour.
 */
const THEME_ACCENTS: Partial<Record<ThemeName, string>> = {
  'theme-star': '#2F54EB',
  'theme-smart': '#1C55D6',
  'theme-cool': '#6A11CB',
  'theme-hey': '#3DBD7D',
  'theme-lte': '#3C8DBC',
};

/** Background of the dark theme's surfaces (antd's dark algorithm uses the same). */
const DARK_SURFACE = '#141414';
/** The lightest surface primary-coloured text sits on in the light themes (tinted menu items, grey tab bars). */
const LIGHT_SURFACE = '#E8E8E8';
/** The greyest surface antd's own links and buttons sit on (a hovered table row is #FAFAFA, some panels #F5F5F5). */
const CONTENT_SURFACE = '#F2F2F2';

export interface ThemeColors {
  /** The chosen colour as it is: accents that carry no text (bars, edges, check marks). */
  accent: string;
  /**
   * A background white text can sit on (AA): primary buttons, the selected menu item; also
   * readable as text on the content's white and light-grey surfaces (links, text buttons).
   */
  solid: string;
  /** Primary-coloured text readable (AA) on the theme's surfaces: links, active tabs. */
  text: string;
  dark: boolean;
}

/**
 * The colours of a theme. A colour the user picked wins over a theme's own hue; with the default
 * colour, a theme that has a hue of its own uses it.
 */
export function themeColors(theme: string, picked: string): ThemeColors {
  const custom = picked.toUpperCase() !== website.defaultColor.toUpperCase();
  const accent = custom ? picked : (THEME_ACCENTS[theme as ThemeName] ?? picked);
  const dark = theme === 'theme-dark';
  return {
    accent,
    solid: readableShade(accent, CONTENT_SURFACE, '#000000'),
    text: dark ? readableShade(accent, DARK_SURFACE, '#FFFFFF') : readableShade(accent, LIGHT_SURFACE, '#000000'),
    dark,
  };
}

/** antd's tag colours (the `color` names a Tag takes) and its status colours. */
const TAG_PRESETS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
] as const;
const TAG_STATUSES = ['Success', 'Info', 'Error', 'Warning'] as const;

/**
 * antd's own text colours that fall short of AA on their usual backgrounds: secondary text
 * (#8c8c8c on white is 3.4:1), danger buttons (#ff4d4f, 3.3:1) and the tags' text on their tinted
 * backgrounds (green on pale green, 3.4:1). Each is deepened (lightened on the dark theme) just
 * enough to read; the palettes themselves stay antd's.
 */
function readableTokens(base: ThemeConfig, dark: boolean): ThemeConfig {
  const toward = dark ? '#FFFFFF' : '#000000';
  const surface = dark ? DARK_SURFACE : CONTENT_SURFACE;
  const t = antdTheme.getDesignToken(base) as unknown as Record<string, string>;
  const shade = (color: string | undefined, against: string | undefined) =>
    color && against && /^#[0-9a-f]{6}$/i.test(color) && /^#[0-9a-f]{6}$/i.test(against)
      ? readableShade(color, against, toward)
      : color;
  const tag: Record<string, string | undefined> = {};
  for (const c of TAG_PRESETS) tag[`${c}7`] = shade(t[`${c}7`], t[`${c}1`]);
  for (const s of TAG_STATUSES) tag[`color${s}`] = shade(t[`color${s}`], t[`color${s}Bg`]);
  return {
    ...base,
    token: {
      ...base.token,
      colorTextTertiary: dark ? 'rgba(255, 255, 255, 0.6)' : 'rgba(0, 0, 0, 0.58)',
      colorTextDescription: dark ? 'rgba(255, 255, 255, 0.6)' : 'rgba(0, 0, 0, 0.58)',
      colorError: shade(t.colorError, surface),
      colorSuccessText: shade(t.colorSuccessText, surface),
      colorWarningText: shade(t.colorWarningText, surface),
      colorErrorText: shade(t.colorErrorText, surface),
    },
    components: {
      ...base.components,
      Tag: tag,
      // Component tokens apply after the dark algorithm, which would otherwise dim the red again.
      Button: { ...base.components?.Button, colorError: shade(t.colorError, surface) },
    },
  };
}

/** antd's theme for a console theme: primary from `themeColors`, dark algorithm for the dark theme. */
export function antdThemeConfig(colors: ThemeColors): ThemeConfig {
  if (colors.dark) {
    return readableTokens(
      {
        algorithm: antdTheme.darkAlgorithm,
        // On dark surfaces the primary must be light enough to read as text, so text on it is dark.
        token: { colorPrimary: colors.text, colorLink: colors.text, colorInfo: colors.text },
        components: { Button: { primaryColor: '#000000' } },
      },
      true,
    );
  }
  return readableTokens(
    { token: { colorPrimary: colors.solid, colorLink: colors.solid, colorInfo: colors.solid } },
    false,
  );
}

import { useEffect } from 'react';
import type { ThemeColors } from './theme-colors';

/**
 * Publishes the theme's colours on <html>: antd's tokens live in JS, but the themes' CSS
 * (themes.css) paints active menu items and tabs in them too. --mes-primary is the accent as
 * chosen; --mes-primary-solid carries white text; --mes-primary-text is primary-coloured text.
 */
export function useThemeCssVars(colors: ThemeColors): void {
  useEffect(() => {
    const style = document.documentElement.style;
    style.setProperty('--mes-primary', colors.accent);
    style.setProperty('--mes-primary-solid', colors.solid);
    style.setProperty('--mes-primary-text', colors.text);
  }, [colors.accent, colors.solid, colors.text]);
}

import { useEffect } from 'react';
import { useSettings } from './settings-store';

/**
 * Publishes the chosen primary colour as --mes-primary on <html>: antd's tokens live in JS, but the
 * themes' CSS (themes.css) paints active menu items and tabs in that colour too.
 */
export function useThemeCssVars(): void {
  const color = useSettings((s) => s.color);
  useEffect(() => {
    document.documentElement.style.setProperty('--mes-primary', color);
  }, [color]);
}

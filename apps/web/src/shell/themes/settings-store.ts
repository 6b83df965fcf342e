import { create } from 'zustand';
import { website } from '../../config/website';
import { getStore, setStore } from '../../storage/local-store';
import { isThemeName } from './themes';

/** Look-and-feel choices, remembered in local storage. */
interface SettingsState {
  theme: string;
  color: string;
  collapsed: boolean;
  setTheme(theme: string): void;
  setColor(color: string): void;
  toggleCollapsed(): void;
}

// A theme name stored by an older build (or typed by hand) would leave the layout unstyled.
const storedTheme = getStore<string>('themeName');
const storedColor = getStore<string>('colorName');

export const useSettings = create<SettingsState>()((set) => ({
  theme: isThemeName(storedTheme) ? storedTheme : website.defaultTheme,
  color: typeof storedColor === 'string' && /^#[0-9a-f]{6}$/i.test(storedColor) ? storedColor : website.defaultColor,
  collapsed: getStore<boolean>('isCollapse') ?? false,
  setTheme(theme) {
    setStore('themeName', theme);
    set({ theme });
  },
  setColor(color) {
    setStore('colorName', color);
    set({ color });
  },
  toggleCollapsed() {
    set((s) => {
      setStore('isCollapse', !s.collapsed);
      return { collapsed: !s.collapsed };
    });
  },
}));

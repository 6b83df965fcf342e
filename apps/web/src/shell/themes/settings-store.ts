import { create } from 'zustand';
import { website } from '../../config/website';
import { getStore, setStore } from '../../storage/local-store';

/** Look-and-feel choices, remembered in local storage. */
interface SettingsState {
  theme: string;
  color: string;
  collapsed: boolean;
  setTheme(theme: string): void;
  setColor(color: string): void;
  toggleCollapsed(): void;
}

export const useSettings = create<SettingsState>()((set) => ({
  theme: getStore<string>('themeName') ?? website.defaultTheme,
  color: getStore<string>('colorName') ?? website.defaultColor,
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

import { create } from 'zustand';
import { website, type TabItem } from '../../config/website';
import { getStore, setStore } from '../../storage/local-store';

const HOME = website.firstPage;

interface TabsState {
  tabs: TabItem[];
  /** Adds a tab unless one with the same path is open. */
  open(tab: TabItem): void;
  /**
   * Closes a tab and returns the path to show next (undefined when the closed tab was not the
   * active one, or could not be closed: home and the last tab stay).
   */
  close(value: string, active: string): string | undefined;
  /** Keeps home and `current`. */
  closeOthers(current: string): void;
  /** Keeps home only. */
  closeAll(): void;
  reset(): void;
}

const persist = (tabs: TabItem[]) => setStore('tags', tabs);
const isHome = (t: TabItem) => t.value === HOME.value;

export const useTabs = create<TabsState>()((set, get) => ({
  tabs: getStore<TabItem[]>('tags') ?? [HOME],
  open(tab) {
    const existing = get().tabs.find((t) => t.value === tab.value);
    if (existing) {
      // An open tab remembers the query it was last shown with (table page, filters), so
      // clicking it comes back to the same rows.
      if (JSON.stringify(existing.query ?? {}) === JSON.stringify(tab.query ?? {})) return;
      const tabs = get().tabs.map((t) => (t === existing ? { ...t, query: tab.query } : t));
      persist(tabs);
      set({ tabs });
      return;
    }
    const tabs = [...get().tabs, tab];
    persist(tabs);
    set({ tabs });
  },
  close(value, active) {
    const { tabs } = get();
    const index = tabs.findIndex((t) => t.value === value);
    const tab = tabs[index];
    if (!tab || tab.close === false || isHome(tab) || tabs.length <= 1) return undefined;
    const next = tabs.filter((t) => t.value !== value);
    persist(next);
    set({ tabs: next });
    if (value !== active) return undefined;
    return (next[index - 1] ?? next[0] ?? HOME).value;
  },
  closeOthers(current) {
    const tabs = get().tabs.filter((t) => isHome(t) || t.value === current);
    persist(tabs);
    set({ tabs });
  },
  closeAll() {
    persist([HOME]);
    set({ tabs: [HOME] });
  },
  reset() {
    persist([HOME]);
    set({ tabs: [HOME] });
  },
}));

import { create } from 'zustand';
import { getStore, setStore } from '../../storage/local-store';
import { appendCapped, type ErrorLogEntry } from './error-entry';

interface ErrorLogState {
  /** Oldest first. */
  logs: ErrorLogEntry[];
  add(entry: ErrorLogEntry): void;
  /** Removes these entries (after an upload), keeping any recorded meanwhile. */
  remove(sent: readonly ErrorLogEntry[]): void;
  clear(): void;
}

function persist(logs: ErrorLogEntry[]): void {
  try {
    setStore('logs', logs);
  } catch {
    // Storage full or blocked: keep the log in memory rather than raise another error.
  }
}

function load(): ErrorLogEntry[] {
  const stored = getStore<unknown>('logs');
  return Array.isArray(stored) ? (stored as ErrorLogEntry[]) : [];
}

/** The local error log, kept in local storage under `logs`. */
export const useErrorLog = create<ErrorLogState>()((set, get) => ({
  logs: load(),
  add(entry) {
    const logs = appendCapped(get().logs, entry);
    persist(logs);
    set({ logs });
  },
  remove(sent) {
    const gone = new Set(sent);
    const logs = get().logs.filter((e) => !gone.has(e));
    persist(logs);
    set({ logs });
  },
  clear() {
    persist([]);
    set({ logs: [] });
  },
}));

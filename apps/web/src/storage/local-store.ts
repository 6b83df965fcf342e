import { website } from '../config/website';

/** A stored item (spec section 3): its type, content and when it was stored. */
interface StoredItem<T> {
  dataType: string;
  content: T;
  datetime: number;
}

const key = (name: string) => `${website.storagePrefix}${name}`;

/** Stores under the configured prefix, in session storage when `session` is set, else local. */
export function setStore<T>(name: string, content: T, session = false): void {
  const item: StoredItem<T> = { dataType: typeof content, content, datetime: Date.now() };
  const target = session ? window.sessionStorage : window.localStorage;
  target.setItem(key(name), JSON.stringify(item));
}

/** Reads an item from session storage first, then local storage. */
export function getStoreItem<T>(name: string): StoredItem<T> | undefined {
  const raw = window.sessionStorage.getItem(key(name)) ?? window.localStorage.getItem(key(name));
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as StoredItem<T>;
  } catch {
    return undefined;
  }
}

export const getStore = <T>(name: string): T | undefined => getStoreItem<T>(name)?.content;

export function removeStore(name: string): void {
  window.sessionStorage.removeItem(key(name));
  window.localStorage.removeItem(key(name));
}

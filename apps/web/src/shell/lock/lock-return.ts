import { website } from '../../config/website';
import { getStore, removeStore, setStore } from '../../storage/local-store';

const KEY = 'lockReturn';

/** Only a path inside this app: never another site (`//host`) nor the lock or sign-in pages. */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return '/';
  const path = value.split(/[?#]/)[0] ?? '';
  return path === website.lockPage || path === '/login' ? '/' : value;
}

/** Remembers the screen being locked, in session storage beside the lock itself (survives a reload). */
export function rememberLockedScreen(path: string): void {
  setStore(KEY, safeReturnPath(path), true);
}

/** The screen to go back to after unlocking, forgotten once read. */
export function takeLockedScreen(): string {
  const path = safeReturnPath(getStore<string>(KEY));
  removeStore(KEY);
  return path;
}

export const forgetLockedScreen = (): void => removeStore(KEY);

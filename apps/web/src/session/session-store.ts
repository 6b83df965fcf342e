import { create } from 'zustand';
import type { MenuNode, OAuthUserInfo, TokenResponse } from '@mes/contracts';
import { website } from '../config/website';
import { getStore, getStoreItem, removeStore, setStore } from '../storage/local-store';

/** The signed-in session (spec section 3 "Session user data"), mirrored into storage. */
export interface SessionState {
  token: string;
  refreshToken: string;
  tenantId: string;
  /** When the token was stored (ms), for the refresh check. */
  tokenTime: number;
  userInfo: Partial<TokenResponse> & Partial<OAuthUserInfo>;
  roles: string[];
  /** Button code → true. */
  permission: Record<string, boolean>;
  menu: MenuNode[];
  menuAll: MenuNode[];
  /** The server's menu has arrived since this page loaded (the stored copy may be stale or empty). */
  menuLoaded: boolean;
  isLock: boolean;
  lockPasswd: string;

  signIn(result: TokenResponse): void;
  setTokens(result: TokenResponse): void;
  setUserInfo(info: OAuthUserInfo): void;
  setMenu(menu: MenuNode[], all?: boolean): void;
  setButtons(forest: MenuNode[]): void;
  lock(password: string): void;
  unlock(): void;
  /** Clears token, menus, roles, tabs and lock locally. */
  signOutLocally(): void;
}

/** The name the shell shows for the signed-in user. */
export const displayName = (user: SessionState['userInfo']): string =>
  user.user_name || user.userName || user.account || '';

/** Leaf button codes of a nested forest, as `{code: true}`. */
export function flattenButtons(forest: MenuNode[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (n.children?.length) walk(n.children);
      else if (n.code) out[n.code] = true;
    }
  };
  walk(forest);
  return out;
}

const initial = () => ({
  token: getStore<string>('token') ?? '',
  refreshToken: getStore<string>('refreshToken') ?? '',
  tenantId: getStore<string>('tenantId') ?? website.tenantId,
  tokenTime: getStoreItem<string>('token')?.datetime ?? 0,
  userInfo: getStore<SessionState['userInfo']>('userInfo') ?? {},
  roles: getStore<string[]>('roles') ?? [],
  permission: getStore<Record<string, boolean>>('permission') ?? {},
  menu: [] as MenuNode[],
  menuAll: getStore<MenuNode[]>('menuAll') ?? [],
  menuLoaded: false,
  // The lock lives in session storage: it survives a reload, not a new browser session.
  isLock: getStore<boolean>('isLock') ?? false,
  lockPasswd: getStore<string>('lockPasswd') ?? '',
});

export const useSession = create<SessionState>()((set) => ({
  ...initial(),
  signIn(result) {
    setStore('token', result.access_token);
    setStore('refreshToken', result.refresh_token);
    setStore('tenantId', result.tenant_id);
    setStore('userInfo', result);
    removeStore('isLock');
    removeStore('lockPasswd');
    set({
      token: result.access_token,
      refreshToken: result.refresh_token,
      tenantId: result.tenant_id,
      tokenTime: Date.now(),
      userInfo: result,
      isLock: false,
      lockPasswd: '',
    });
  },
  setTokens(result) {
    setStore('token', result.access_token);
    setStore('refreshToken', result.refresh_token);
    set({ token: result.access_token, refreshToken: result.refresh_token, tokenTime: Date.now() });
  },
  setUserInfo(info) {
    set((s) => {
      // The sign-in reply's snake_case names are what the header shows: keep them in step.
      const userInfo = {
        ...s.userInfo,
        ...info,
        user_name: info.userName,
        nick_name: info.nickName,
        real_name: info.realName,
        avatar: info.avatar,
      };
      setStore('userInfo', userInfo);
      setStore('roles', info.roles);
      return { userInfo, roles: info.roles };
    });
  },
  setMenu(menu, all = false) {
    if (all) setStore('menuAll', menu);
    set(all ? { menu, menuAll: menu, menuLoaded: true } : { menu });
  },
  setButtons(forest) {
    const permission = flattenButtons(forest);
    setStore('permission', permission);
    set({ permission });
  },
  lock(password) {
    setStore('lockPasswd', password, true);
    setStore('isLock', true, true);
    set({ isLock: true, lockPasswd: password });
  },
  unlock() {
    removeStore('isLock');
    removeStore('lockPasswd');
    set({ isLock: false, lockPasswd: '' });
  },
  signOutLocally() {
    for (const name of [
      'token',
      'refreshToken',
      'userInfo',
      'roles',
      'permission',
      'menuAll',
      'isLock',
      'lockPasswd',
      'tags',
    ]) {
      removeStore(name);
    }
    set({
      token: '',
      refreshToken: '',
      tokenTime: 0,
      userInfo: {},
      roles: [],
      permission: {},
      menu: [],
      menuAll: [],
      menuLoaded: false,
      isLock: false,
      lockPasswd: '',
    });
  },
}));

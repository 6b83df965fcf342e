import { requestData } from '../../../api/http';
import { fetchTree, type TreeNode } from './tree-data';

export type GrantTab = 'menu' | 'dataScope' | 'apiScope';
export const GRANT_TABS: readonly GrantTab[] = ['menu', 'dataScope', 'apiScope'];

const TREE_URLS: Record<GrantTab, string> = {
  menu: '/blade-system/menu/grant-tree',
  dataScope: '/blade-system/menu/grant-data-scope-tree',
  apiScope: '/blade-system/menu/grant-api-scope-tree',
};

export type GrantTrees = Record<GrantTab, TreeNode[]>;
export type GrantKeys = Record<GrantTab, string[]>;

export async function fetchGrantTrees(): Promise<GrantTrees> {
  const [menu, dataScope, apiScope] = await Promise.all(GRANT_TABS.map((tab) => fetchTree(TREE_URLS[tab])));
  return { menu: menu ?? [], dataScope: dataScope ?? [], apiScope: apiScope ?? [] };
}

/** What the roles hold now: `{menu, dataScope, apiScope}` id lists. */
export async function fetchRoleKeys(roleIds: readonly string[]): Promise<GrantKeys> {
  const keys = await requestData<Partial<Record<GrantTab, unknown[]>> | null>('/blade-system/menu/role-tree-keys', {
    params: { roleIds: roleIds.join(',') },
  });
  const list = (tab: GrantTab) => (keys?.[tab] ?? []).map(String);
  return { menu: list('menu'), dataScope: list('dataScope'), apiScope: list('apiScope') };
}

export const saveGrant = (roleIds: readonly string[], keys: GrantKeys) =>
  requestData<unknown>('/blade-system/role/grant', {
    method: 'POST',
    form: true,
    data: {
      roleIds: roleIds.join(','),
      menuIds: keys.menu.join(','),
      dataScopeIds: keys.dataScope.join(','),
      apiScopeIds: keys.apiScope.join(','),
    },
  });

import { menuResource, roleResource } from '@mes/contracts';
import { apiPost, resourceRoute } from '../../../api/server-state';
import type { TreeNode } from './tree-data';

export type GrantTab = 'menu' | 'dataScope' | 'apiScope';
export const GRANT_TABS: readonly GrantTab[] = ['menu', 'dataScope', 'apiScope'];

export type GrantTrees = Record<GrantTab, TreeNode[]>;
export type GrantKeys = Record<GrantTab, string[]>;

/** The three trees of the dialog in one call: `grant-tree` answers `{menu, dataScope, apiScope}`. */
export const GRANT_TREE_ROUTE = resourceRoute(menuResource, 'grant-tree');
/** What the roles hold now: `{menu, dataScope, apiScope}` id lists. */
export const ROLE_KEYS_ROUTE = resourceRoute(menuResource, 'role-tree-keys');

export type GrantTreesAnswer = Partial<Record<GrantTab, TreeNode[] | null>> | null;
export type RoleKeysAnswer = Partial<Record<GrantTab, unknown[]>> | null;

export function grantTreesOf(trees: GrantTreesAnswer): GrantTrees {
  const tree = (tab: GrantTab) => trees?.[tab] ?? [];
  return { menu: tree('menu'), dataScope: tree('dataScope'), apiScope: tree('apiScope') };
}

export function roleKeysOf(keys: RoleKeysAnswer): GrantKeys {
  const list = (tab: GrantTab) => (keys?.[tab] ?? []).map(String);
  return { menu: list('menu'), dataScope: list('dataScope'), apiScope: list('apiScope') };
}

export const saveGrant = (roleIds: readonly string[], keys: GrantKeys) =>
  apiPost(
    resourceRoute(roleResource, 'grant'),
    {
      roleIds: roleIds.join(','),
      menuIds: keys.menu.join(','),
      dataScopeIds: keys.dataScope.join(','),
      apiScopeIds: keys.apiScope.join(','),
    },
    { form: true },
  );

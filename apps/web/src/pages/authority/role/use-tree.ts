import { useApiRead } from '../../../api/use-api';
import type { TreeNode } from './tree-data';

const forest = (nodes: TreeNode[] | null) => nodes ?? [];

/**
 * A picker or grant forest (`…/tree`), read through the shared cache: the role and department
 * trees are the same entries the generic screens' pickers use.
 */
export const useTree = (url: string, enabled: boolean, params?: Record<string, string | undefined>) =>
  useApiRead<TreeNode[] | null, TreeNode[]>(url, params, { enabled, select: forest });

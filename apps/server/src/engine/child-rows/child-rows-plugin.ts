import type { ResourcePlugin } from '../kernel/plugin';
import { childRowHooks } from './child-row-hooks';
import { ChildRows } from './child-rows';

/**
 * Child collections (`def.children`, packages/contracts/src/engine/children.ts): the parent's
 * submit, detail and remove carry its child rows (child-row-hooks.ts). One `ChildRows` per
 * registration, built once.
 */
export const childRowsPlugin: ResourcePlugin = {
  name: 'child-rows',
  appliesTo: (binding) => Object.keys(binding.def.children ?? {}).length > 0,
  attach(ctx, binding) {
    const children = new ChildRows(ctx, binding.def);
    return { hooks: (own) => childRowHooks(children, ctx.db, own) };
  },
};

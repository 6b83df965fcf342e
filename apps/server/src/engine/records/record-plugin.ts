import type { ResourcePlugin } from '../kernel/plugin';
import { RecordChain } from './record-chain';
import { recordHooks } from './record-hooks';
import { registerRecordRoutes } from './record-routes';

/**
 * Regulated records (`def.records`): the chain's lifecycle around the module's hooks, and the
 * record routes (`review`, `correct`, `verify`, `versions`). One chain per registration, shared
 * by both.
 */
export const recordPlugin: ResourcePlugin = {
  name: 'records',
  appliesTo: (binding) => binding.def.records !== undefined,
  attach(ctx, binding) {
    const chain = new RecordChain(binding.def, binding.table);
    return {
      hooks: (own) => recordHooks(ctx, binding.def, binding.table, chain, own),
      register: (app, _routes, service) => registerRecordRoutes(app, ctx, service, chain),
    };
  },
};

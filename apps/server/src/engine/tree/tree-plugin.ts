import { asc } from 'drizzle-orm';
import { requireAuth } from '../../platform/auth/request-auth';
import { ok } from '../../platform/http/envelope';
import { queryOf, type ResourcePlugin } from '../kernel/plugin';
import { toForest, toPickerForest } from './forest';

/**
 * Tree resources (`def.tree`): a `list` that answers the whole forest (with `page` beside it
 * for paging), and `tree`, the picker's nodes.
 */
export const treePlugin: ResourcePlugin = {
  name: 'tree',
  appliesTo: (binding) => binding.def.tree !== undefined,
  attach(_ctx, binding) {
    const def = binding.def;
    const forestList = (def.listRoute ?? 'list') === 'list';
    return {
      // The kernel's list names (and its alias) are this plug-in's when the list is the forest.
      claims: forestList ? ['list', ...(def.listAlias ? [def.listAlias] : [])] : [],
      register(app, routes, service) {
        const { ops, base, read, docs, ctx } = routes;
        const tree = def.tree;
        if (!tree) return;
        if (forestList && (ops.has('list') || ops.has('page'))) {
          // BladeX's tree lists answer the whole forest, paging parameters or not; `page` pages.
          app.get(`${base}/list`, { config: read, schema: docs.forest }, async (request) =>
            ok(toForest(await service.all(queryOf(request), requireAuth(request), 'view'), tree.parent)),
          );
          if (!binding.omit?.includes('page'))
            app.get(`${base}/page`, { config: read, schema: docs.list }, async (request) =>
              ok(await service.page(queryOf(request), requireAuth(request))),
            );
        }
        if (!binding.omit?.includes('tree')) {
          app.get(`${base}/tree`, { config: read, schema: docs.tree }, async (request) => {
            const auth = requireAuth(request);
            const rows = await ctx.db
              .select(service.columns)
              .from(binding.table)
              .where(await service.readScope(auth))
              .orderBy(...service.defaultOrder(), asc(binding.table.id));
            return ok(toPickerForest(rows, tree.parent, tree.title));
          });
        }
      },
    };
  },
};

import type { FastifyInstance } from 'fastify';
import { apiScopeCodes, isAggregate, operationsOf } from '@mes/contracts';
import type { AppContext } from '../app-context';
import { childRowsPlugin } from './child-rows/child-rows-plugin';
import { enablePlugin } from './enable/enable-plugin';
import { exportPlugin } from './export/export-plugin';
import { registerKernelRoutes } from './kernel/kernel-routes';
import type { PluginAttachment, ResourcePlugin, ResourceRoutes } from './kernel/plugin';
import { rememberService, ResourceService } from './kernel/resource-service';
import { recordPlugin } from './records/record-plugin';
import type { ResourceBinding } from './resource-hooks';
import { openApiSchemas } from './resource-openapi';
import { selectPlugin } from './select/select-plugin';
import { seriesPlugin } from './series/series-plugin';
import { treePlugin } from './tree/tree-plugin';

// The engine's public face for modules: the kernel's service, the hooks' and bindings' types
// (resource-hooks.ts, a leaf the record hooks and the xlsx writer name too) and the forests.
export { ResourceService, resourceServiceOf } from './kernel/resource-service';
export { toForest, toPickerForest } from './tree/forest';
export type {
  ChangeArgs,
  EnqueueInChange,
  GenericRoute,
  RemoveArgs,
  ResourceBinding,
  ResourceHooks,
  Row,
} from './resource-hooks';

/**
 * The features a definition opts into, in the order their steps run. Records come first: their
 * hooks wrap the module's own before anything else sees them; the child rows' wrap those (a
 * parent's rows are saved before the record is sealed and the module's `afterChange` runs).
 */
export const PLUGINS: readonly ResourcePlugin[] = [
  recordPlugin,
  childRowsPlugin,
  seriesPlugin,
  treePlugin,
  selectPlugin,
  enablePlugin,
  exportPlugin,
];

/** The operations a registration of the binding serves: the definition's, less what it omits. */
function operationsFor(declared: ResourceBinding): Set<string> {
  const ops = new Set<string>(operationsOf(declared.def));
  for (const route of declared.omit ?? []) ops.delete(route);
  // An aggregate is read-only whatever its operations say: its rows are a view's or a query's.
  if (isAggregate(declared.def)) for (const route of ['submit', 'remove', 'enable']) ops.delete(route);
  return ops;
}

/**
 * The plug-ins that apply, attached, and the kernel's service over what they make of the binding:
 * their hooks around the module's, and a plug-in's page read.
 */
function assemble(ctx: AppContext, declared: ResourceBinding, ops: ReadonlySet<string>) {
  const attached: PluginAttachment[] = PLUGINS.filter((p) => p.appliesTo(declared, ops)).map((p) =>
    p.attach(ctx, declared),
  );
  let hooks = declared.hooks;
  for (const plugin of attached) if (plugin.hooks) hooks = plugin.hooks(hooks);
  const binding = hooks === declared.hooks ? declared : { ...declared, hooks };
  const [pages, ...more] = attached.flatMap((p) => (p.page ? [p.page] : []));
  if (more.length) throw new Error(`${declared.def.code}: more than one plug-in reads its pages`);
  return { attached, binding, service: new ResourceService(ctx, binding, pages) };
}

/**
 * A service of a resource with its plug-ins' hooks and page read but no routes, for a module that
 * writes or reads a resource through the engine outside its routes (guest registration's users):
 * child rows, series paging and records behave as through the routes.
 */
export function buildResourceService(ctx: AppContext, declared: ResourceBinding): ResourceService {
  return assemble(ctx, declared, operationsFor(declared)).service;
}

/**
 * Registers the generic routes of a resource under `/api<def.api>`, as a lifecycle: the
 * operations it has, the plug-ins that apply, their hooks around the module's (and a page read),
 * the kernel's service and routes (`list` or `page`, `detail`, `submit`, `remove`), then each plug-in's
 * routes (`tree`, `select`, `enable`, `export`, the record routes). Returns the service so a
 * module can add its own routes on top without repeating the generic path.
 */
export function registerResource(app: FastifyInstance, ctx: AppContext, declared: ResourceBinding): ResourceService {
  const { def } = declared;
  const ops = operationsFor(declared);
  const { attached, binding, service } = assemble(ctx, declared, ops);
  rememberService(ctx, service);
  const scopes = apiScopeCodes(def.code);
  const routes: ResourceRoutes = {
    ctx,
    binding,
    ops,
    base: `/api${def.api}`,
    read: { apiScope: scopes.read },
    write: { apiScope: scopes.write },
    docs: openApiSchemas(def, service.fields),
  };
  registerKernelRoutes(app, routes, service, new Set(attached.flatMap((p) => p.claims ?? [])));
  for (const plugin of attached) plugin.register?.(app, routes, service);
  return service;
}

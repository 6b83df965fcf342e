import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import type { openApiSchemas } from '../resource-openapi';
import type { ResourceBinding, ResourceHooks } from '../resource-hooks';
import type { PageReader, ResourceService } from './resource-service';

/**
 * What every route of one resource's registration shares: its path, its operations (the
 * definition's, less what the binding omits), the API scopes of reads and writes and the
 * OpenAPI schemas of the generic routes.
 */
export interface ResourceRoutes {
  readonly ctx: AppContext;
  /** The binding the service was built from (hooks as the plug-ins wrapped them). */
  readonly binding: ResourceBinding;
  readonly ops: ReadonlySet<string>;
  /** `/api<def.api>`. */
  readonly base: string;
  readonly read: FastifyContextConfig;
  readonly write: FastifyContextConfig;
  readonly docs: ReturnType<typeof openApiSchemas>;
}

/** The query string of a request, as the generic routes read it. */
export const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/**
 * What a plug-in does for one registration of a resource it applies to. Each step is optional;
 * `registerResource` runs them in this order, plug-in by plug-in (resource-routes.ts).
 */
export interface PluginAttachment {
  /**
   * Before the service is built: the hooks the engine runs, around the module's own (or what
   * an earlier plug-in made of them). The records feature puts its chain around them here.
   */
  hooks?(own: ResourceHooks | undefined): ResourceHooks;
  /**
   * The service's page read in place of the kernel's offset paging (a series' keyset): `page`
   * answers through it whichever route or module calls it. At most one plug-in of a binding.
   */
  page?(service: ResourceService): PageReader;
  /** Generic routes this plug-in serves in place of the kernel's (the tree's forest `list`). */
  claims?: readonly string[];
  /** After the kernel's routes: the plug-in's own. */
  register?(app: FastifyInstance, routes: ResourceRoutes, service: ResourceService): void;
}

/**
 * A feature a definition opts into (records, child rows, series, tree, select, enable, export …): the kernel lists,
 * reads and writes rows; a plug-in adds routes or hooks where its definition asks for them.
 * A new feature is a folder under `engine/` with its plug-in, listed in `PLUGINS`.
 */
export interface ResourcePlugin {
  readonly name: string;
  /** Whether a registration of this binding, with these operations, gets the feature. */
  appliesTo(binding: ResourceBinding, ops: ReadonlySet<string>): boolean;
  /** Called once per registration it applies to: what it keeps for that registration lives in the closure. */
  attach(ctx: AppContext, binding: ResourceBinding): PluginAttachment;
}

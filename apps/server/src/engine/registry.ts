import type { FastifyInstance } from 'fastify';
import { isScreenDef, REGISTRY, type RegistryEntry, type ResourceDef } from '@mes/contracts';
import type { AppContext } from '../app-context';
import { tableFor } from './definition-tables';
import { registerResource } from './resource-routes';
import { scheduleRecordRetention } from './records/record-retention-job';

/**
 * The server side of the registry: every definition gets its routes from here. A plain resource
 * needs nothing but its definition (the generic routes on its table); a module whose resource
 * has hooks or routes of its own binds the definition to its register function.
 */
export interface RouteBinding {
  /** The definitions whose routes `register` adds, generic ones included (with the module's hooks). */
  defs: readonly RegistryEntry[];
  register(app: FastifyInstance, ctx: AppContext): void;
}

export interface RegistryRoutesOptions {
  /** Default: the application's registry. */
  entries?: readonly RegistryEntry[];
  bindings: readonly RouteBinding[];
}

/**
 * Registers the routes of every definition, in registry order: a bound one through its module
 * (once per binding), any other resource through the generic routes on its table. Screens that
 * are not resources have no generic routes. Refuses a binding of a definition the registry does
 * not list, and a definition bound twice.
 */
export function registerRegistryRoutes(app: FastifyInstance, ctx: AppContext, options: RegistryRoutesOptions): void {
  const entries = options.entries ?? REGISTRY;
  const listed = new Set<RegistryEntry>(entries);
  const bindingOf = new Map<RegistryEntry, RouteBinding>();
  for (const binding of options.bindings) {
    for (const def of binding.defs) {
      if (!listed.has(def)) throw new Error(`registry: routes bound for ${def.code}, which the registry does not list`);
      if (bindingOf.has(def)) throw new Error(`registry: routes of ${def.code} are bound twice`);
      bindingOf.set(def, binding);
    }
  }
  const registered = new Set<RouteBinding>();
  for (const entry of entries) {
    const binding = bindingOf.get(entry);
    if (binding) {
      if (!registered.has(binding)) binding.register(app, ctx);
      registered.add(binding);
    } else if (!isScreenDef(entry)) {
      registerResource(app, ctx, { def: entry, table: tableFor(entry) });
    }
  }
  const records = entries.filter((e): e is ResourceDef => !isScreenDef(e) && e.records !== undefined);
  scheduleRecordRetention(
    ctx,
    records.map((def) => ({ def, table: tableFor(def) })),
  );
}

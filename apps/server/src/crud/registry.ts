import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { isAggregate, isScreenDef, REGISTRY, type RegistryEntry, type ResourceDef } from '@mes/contracts';
import type { AppContext } from '../app-context';
import { resourceTable } from '../platform/db/resource-table';
import * as schema from '../platform/db/schema';
import type { AnyResourceTable } from './resource-access';
import { aggregateViewTable, isQueryAggregate } from './aggregate-source';
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

const schemaTables = new Map<string, AnyResourceTable>(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [getTableName(table), table as AnyResourceTable]),
);
const builtTables = new WeakMap<ResourceDef, AnyResourceTable>();

/**
 * The table of a definition: the schema's (resource-tables.ts, generated from the registry), or,
 * for a definition the schema does not have (a test's own, a view aggregate), one built from it
 * once. A query aggregate has none: its module builds its relation from the app's settings.
 */
export function tableFor(def: ResourceDef): AnyResourceTable {
  if (isQueryAggregate(def))
    throw new Error(`registry: ${def.code} reads a query; bind it to the module that supplies the query`);
  const known = schemaTables.get(def.table) ?? builtTables.get(def);
  if (known) return known;
  // An aggregate's view is read as a table of the definition's columns (aggregate-source.ts).
  const built = isAggregate(def) ? aggregateViewTable(def) : (resourceTable(def) as unknown as AnyResourceTable);
  builtTables.set(def, built);
  return built;
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

import type { ResourceDef } from '../engine/define';
import type { ScreenDef } from '../engine/menu-placement';

/**
 * What the registry lists: resource definitions and screens that are not generic resources.
 * Kept apart from `registry.ts` (which imports the generated list) so that the generator can
 * recognise definitions even while that list is out of date.
 */
export type RegistryEntry = ResourceDef | ScreenDef;

export const isScreenDef = (value: unknown): value is ScreenDef =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'screen';

/** A resource definition: what `defineResource` returns (a code, a table, an API prefix, fields). */
export function isResourceDef(value: unknown): value is ResourceDef {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof ResourceDef, unknown>>;
  return (
    typeof v.code === 'string' &&
    typeof v.table === 'string' &&
    typeof v.api === 'string' &&
    typeof v.fields === 'object' &&
    v.fields !== null
  );
}

export const isRegistryEntry = (value: unknown): value is RegistryEntry => isScreenDef(value) || isResourceDef(value);

import type { ResourceDef } from '@mes/contracts';

/** What the list shows: page, page size, filters (wire names and values) and sort. */
export interface TableState {
  current: number;
  size: number;
  /** Filter name (`postCode`, `createTime_dategt`) → value as sent. */
  filters: Record<string, string>;
  ascs?: string;
  descs?: string;
}

export const PAGE_SIZES = [10, 30, 50, 100, 200] as const;
export const DEFAULT_SIZE = 10;
/** The created-time range of the search bar, as the list grammar names it. */
export const CREATED_FROM = 'createTime_dategt';
export const CREATED_TO = 'createTime_datelt';

export const initialTableState = (): TableState => ({ current: 1, size: DEFAULT_SIZE, filters: {} });

/** Resources with the audit columns can be searched by created time. */
/** Audited rows carry `create_time`; append-only ones (logs) search by it when they declare it. */
export const hasCreatedRange = (def: ResourceDef) => def.audit !== false || 'createTime' in def.fields;

/** The filter names this resource's search bar may send (and keep in the URL). */
export function filterNames(def: ResourceDef): string[] {
  const names = Object.entries(def.fields)
    .filter(([, f]) => f.search && f.kind !== 'secret')
    .map(([name]) => name);
  if (hasCreatedRange(def)) names.push(CREATED_FROM, CREATED_TO);
  return names;
}

/** Spec section 5: a search sends no empty values (null, '', blanks, []). */
export function dropEmpty(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length) out[name] = value.join(',');
      continue;
    }
    const text = String(value).trim();
    if (text !== '') out[name] = text;
  }
  return out;
}

/**
 * Query parameters of a list or export call. Extra parameters (from the screen) win over the
 * search bar's; empty ones are dropped. `paged: false` leaves out current and size (tree lists
 * and export want every matching row).
 */
export function listParams(
  state: TableState,
  extra: Record<string, string | undefined> | undefined,
  paged: boolean,
): Record<string, string | number> {
  const out: Record<string, string | number> = { ...state.filters, ...dropEmpty(extra ?? {}) };
  if (paged) {
    out.current = state.current;
    out.size = state.size;
  }
  if (state.ascs) out.ascs = state.ascs;
  if (state.descs) out.descs = state.descs;
  return out;
}

const positive = (raw: string | null, fallback: number) => {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Reads the table state from a query string; unknown names are not this table's. */
export function readTableState(search: URLSearchParams, names: readonly string[]): TableState {
  const size = positive(search.get('size'), DEFAULT_SIZE);
  const filters = dropEmpty(Object.fromEntries(names.map((n) => [n, search.get(n)])));
  return {
    current: positive(search.get('current'), 1),
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
    filters,
    ascs: search.get('ascs') || undefined,
    descs: search.get('descs') || undefined,
  };
}

/** A copy of `search` with this table's state in it; defaults are left out to keep links short. */
export function writeTableState(search: URLSearchParams, state: TableState, names: readonly string[]): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const name of ['current', 'size', 'ascs', 'descs', ...names]) next.delete(name);
  if (state.current !== 1) next.set('current', String(state.current));
  if (state.size !== DEFAULT_SIZE) next.set('size', String(state.size));
  for (const name of names) {
    const value = state.filters[name];
    if (value) next.set(name, value);
  }
  if (state.ascs) next.set('ascs', state.ascs);
  if (state.descs) next.set('descs', state.descs);
  return next;
}

/** Same state as far as the URL can tell (the query-string form of both). */
export const sameTableState = (a: TableState, b: TableState, names: readonly string[]) =>
  writeTableState(new URLSearchParams(), a, names).toString() ===
  writeTableState(new URLSearchParams(), b, names).toString();

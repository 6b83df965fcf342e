import { ROOT_PARENT_NAME, type Row } from '@mes/contracts';

/**
 * Adding display names to rows, given the lookup maps: pure and plain data only, so the export
 * thread names the rows it reads with the same code the main thread uses (display-names.ts).
 */

export type Names = ReadonlyMap<string, string>;

/** Which names a resource's rows get (`DisplayNames.plan`): plain data, it crosses to the export thread. */
export interface NamesPlan {
  /** Each dictionary field and the key its label goes to (`<field>Name`). */
  dictFields: { name: string; nameKey: string }[];
  /** The tree's parent field, when the rows get `parentName`. */
  treeParent: string | undefined;
  /** Whether the rows get `tenantName` (the platform reading every tenant). */
  tenantName: boolean;
}

/** The maps every tenant shares: system dictionaries (by dictionary field) and tenant names. */
export interface SharedNames {
  dict: (Names | undefined)[];
  tenants: Names | undefined;
}

/** One tenant's maps: its business dictionaries (by dictionary field) and its tree rows' names. */
export interface TenantNames {
  biz: (Names | undefined)[];
  parents: Names | undefined;
}

export const textOf = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Labels of a value, or of each id of a comma-joined list; unknown values give nothing. */
const labelOf = (names: Names, value: unknown) => {
  const raw = textOf(value);
  if (raw === '') return '';
  const whole = names.get(raw);
  if (whole !== undefined) return whole;
  return raw
    .split(',')
    .map((part) => names.get(part.trim()))
    .filter((label): label is string => label !== undefined)
    .join(',');
};

const isRoot = (parentId: unknown) => {
  const raw = textOf(parentId);
  return raw === '' || raw === '0';
};

/** The tenants whose maps `nameRows` needs for these rows. */
export const tenantsOf = (rows: readonly Row[]) => [...new Set(rows.map((r) => textOf(r.tenantId)))];

/**
 * Adds the names to `rows` themselves. In place: the rows are the caller's own fresh query results
 * (decorate fills the reference labels in place too). A copy per row and layer (`{ ...row, ...names }`,
 * then the hook's) was 15 % of the user page's CPU and much of its garbage. Adding keys one by one
 * does turn a wide row into a dictionary-mode object, but names, hook fields and the reply's JSON
 * cost 40 µs per 10-row page that way against 110 µs with the copies (docs/api.md).
 */
export function nameRows(
  plan: NamesPlan,
  shared: SharedNames,
  perTenant: ReadonlyMap<string, TenantNames>,
  rows: Row[],
): void {
  for (const row of rows) {
    const own = perTenant.get(textOf(row.tenantId));
    for (let i = 0; i < plan.dictFields.length; i++) {
      const f = plan.dictFields[i] as NamesPlan['dictFields'][number];
      const labels = shared.dict[i] ?? own?.biz[i];
      row[f.nameKey] = labels ? labelOf(labels, row[f.name]) : '';
    }
    if (plan.treeParent && own?.parents) {
      const parentId = row[plan.treeParent];
      row.parentName = isRoot(parentId) ? ROOT_PARENT_NAME : (own.parents.get(textOf(parentId)) ?? '');
    }
    if (shared.tenants) row.tenantName = shared.tenants.get(textOf(row.tenantId)) ?? '';
  }
}

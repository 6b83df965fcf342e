/**
 * The BladeX list-query grammar: `current`, `size`, `ascs`, `descs` and filters whose names may
 * carry an operator suffix. Shared so the web app builds exactly what the server accepts.
 */

/** Operator suffixes, longest first so that `_notlike` is matched before `_like`. */
export const FILTER_SUFFIXES = [
  'notequal',
  'dateequal',
  'notnull',
  'notlike',
  'dategt',
  'datelt',
  'ignore',
  'equal',
  'like',
  'null',
  'gt',
  'lt',
] as const;
export type FilterOperator = (typeof FILTER_SUFFIXES)[number];

/** Parameters that control paging and sorting; never treated as filters. */
export const PAGING_PARAMS = ['current', 'size', 'ascs', 'descs'] as const;

/** The kinds of value a filterable field holds; they decide the bare-name operator and parsing. */
export type QueryFieldType = 'text' | 'number' | 'id' | 'date' | 'boolean';

/** What a resource declares about one field for lists: its type and what clients may do with it. */
export interface QueryFieldSpec {
  type: QueryFieldType;
  /** Clients may filter on it (with any suffix that suits the type). */
  filter?: boolean;
  /** Clients may sort on it with `ascs` / `descs`. */
  sort?: boolean;
}

export interface ParsedFilterName {
  field: string;
  /** Undefined for a bare name: LIKE for text, equality otherwise. */
  operator: FilterOperator | undefined;
}

/** Splits `createTime_dategt` into `{field: 'createTime', operator: 'dategt'}`. */
export function parseFilterName(name: string): ParsedFilterName {
  for (const suffix of FILTER_SUFFIXES) {
    const tail = `_${suffix}`;
    if (name.length > tail.length && name.endsWith(tail)) {
      return { field: name.slice(0, -tail.length), operator: suffix };
    }
  }
  return { field: name, operator: undefined };
}

/** Which operators make sense for which field type. */
export const OPERATORS_BY_TYPE: Record<QueryFieldType, readonly FilterOperator[]> = {
  text: ['equal', 'notequal', 'like', 'notlike', 'null', 'notnull', 'ignore'],
  number: ['equal', 'notequal', 'gt', 'lt', 'null', 'notnull', 'ignore'],
  id: ['equal', 'notequal', 'null', 'notnull', 'ignore'],
  date: ['dategt', 'datelt', 'dateequal', 'gt', 'lt', 'null', 'notnull', 'ignore'],
  boolean: ['equal', 'notequal', 'null', 'notnull', 'ignore'],
};

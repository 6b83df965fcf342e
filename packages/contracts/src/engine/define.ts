import { DEFAULT_DECIMAL_SHAPE, type DecimalShape } from './decimal';
import type { JsonSchema } from './json-schema';
import type { ResourceMenu } from './menu-placement';
import type { SeriesDef } from './series';
import type { LocalText } from './local-text';
import type { RecordRules } from './record-rules';

export type { LocalText } from './local-text';
export type { SeriesDef, SeriesPartition } from './series';
export { DEFAULT_SERIES_ESTIMATE_ABOVE, DEFAULT_SERIES_RANGE_HOURS } from './series';

/**
 * One definition per resource (ARCHITECTURE.md "Where a new feature goes"): the fields of an
 * entity with their types, labels, rules and list/form behaviour. The server builds the table,
 * validation, routes, permission codes and OpenAPI from it; the web app builds the CRUD screen.
 */

/**
 * How a value is stored and travels:
 * - `string`: varchar(max); `text`: unbounded text;
 * - `int`: integer;
 * - `decimal`: `NUMERIC(precision, scale)`, travels as text with `scale` decimals (`"12.50"`),
 *   accepted as text or as a JSON number, never read through a float;
 * - `boolean`: boolean, travels as `true` / `false`;
 * - `id`: a 64-bit id as a decimal string; `ids`: comma-joined ids;
 * - `datetime`: timestamptz, travels as `yyyy-MM-dd HH:mm:ss`;
 * - `date`: a calendar day without time (PostgreSQL `date`), travels as `yyyy-MM-dd`;
 * - `json`: jsonb holding a value of the field's `schema`, travels as that JSON value;
 * - `reference`: the id of a row of another resource (bigint, NULL for none), travels as an id
 *   string; replies carry the referenced row's label as `<field>Name`;
 * - `secret`: stored encrypted, accepted on submit, never sent back.
 */
export type FieldKind =
  | 'string'
  | 'text'
  | 'int'
  | 'decimal'
  | 'boolean'
  | 'id'
  | 'ids'
  | 'datetime'
  | 'date'
  | 'json'
  | 'reference'
  | 'secret';

/** The input a form shows for a field; derived from the kind when not given. */
export type FieldControl =
  | 'input'
  | 'textarea'
  | 'number'
  | 'select'
  | 'radio'
  | 'tree-select'
  | 'datetime'
  | 'date'
  | 'switch'
  | 'json'
  | 'password'
  | 'multi-select'
  | 'multi-tree-select';

/** Where a select's options come from. */
export type OptionSource =
  /** A system dictionary (`/blade-system/dict/dictionary?code=`). */
  | { dict: string }
  /** A business dictionary of the caller's tenant. */
  | { dictBiz: string }
  /**
   * Another endpoint returning `[{title|label, value|key|id, children?}]` or an entity list;
   * `where` keeps only the rows it holds for (a tree's other nodes give way to their children).
   */
  | {
      url: string;
      label?: string;
      value?: string;
      where?: FieldCondition;
      /**
       * Each option also carries this field of its row (`Option.match`), so that a form offers
       * only the rows a `reference.matches` admits (the lines of the chosen base).
       */
      match?: string;
    }
  /** A fixed list. */
  | { items: readonly { value: string | number; label: LocalText }[] };

export interface PatternRule {
  /** A JavaScript regular expression source, anchored by the author. */
  regex: string;
  message: LocalText;
}

/**
 * Holds while another field of the same row has one of the listed values (compared as text, so
 * `in: [1]` matches the select's `'1'` too). On update the row is the stored one overlaid by
 * what was sent.
 */
export interface FieldCondition {
  field: string;
  in: readonly (string | number)[];
}

/** What removing a referenced row does to the rows that reference it. */
export type ReferenceRemoval = 'refuse' | 'clear' | 'keep';

/** The target of a `reference` field. */
export interface FieldReference {
  /**
   * The referenced resource. A function, read only when needed, so that two definitions may
   * refer to each other (or a definition to itself) without an import cycle.
   */
  to: () => ResourceDef;
  /** The target's field whose value names a referenced row (`deptName`); sent as `<field>Name`. */
  label: string;
  /**
   * Removing a referenced target row: `refuse` (default) answers 400 naming this resource;
   * `clear` sets this field to NULL on the referencing rows in the same transaction; `keep`
   * leaves them as they are (a record names the department it was made in, after that
   * department is gone: targets are removed softly, so the id still names a row).
   */
  onRemove?: ReferenceRemoval;
  /**
   * Only target rows for which this holds may be referenced (a device's department is a base or
   * a clinic): the picker offers only them and a submit naming another row is refused.
   */
  where?: FieldCondition;
  /**
   * The referenced row's `targetField` must equal this row's `field` (a car's line runs from the
   * car's base): checked on every write against the stored row overlaid by what was sent.
   */
  matches?: { field: string; targetField: string };
}

/**
 * A value the server computes from other fields of the same row instead of taking it from the
 * client (an article's expiry date from its pack material and pack date). Kept in its column, so
 * lists filter and sort by it like any other field. It is computed on every add, and on an
 * update that sends one of `from`; the field itself is never read from a submit.
 */
export interface DerivedValue {
  /** The fields it is computed from. */
  from: readonly string[];
  /** The value in its stored form (a day as `yyyy-MM-dd`); `null` when it cannot be known. */
  value: (row: Readonly<Record<string, unknown>>) => string | number | boolean | null;
}

export interface FieldDef {
  kind: FieldKind;
  label: LocalText;
  /** Column name; snake_case of the field name by default. */
  column?: string;
  /**
   * varchar length and the longest value accepted (characters); for `json`, the longest JSON
   * text accepted (default 65,536 characters).
   */
  max?: number;
  /** Smallest and largest number accepted (int and decimal). */
  range?: readonly [number, number];
  /** `decimal` only: total digits (default 18). */
  precision?: number;
  /** `decimal` only: digits after the point (default 2). */
  scale?: number;
  /** `json` only: the shape every value must have. */
  schema?: JsonSchema;
  /** `reference` only: the referenced resource and how its rows are named and removed. */
  reference?: FieldReference;
  /** Computed by the engine from other fields; give it `form: 'readonly'` or `false`. */
  derive?: DerivedValue;
  required?: boolean;
  /**
   * Required while the condition holds (a provider's own settings), with the same message as
   * `required`; checked on blur in the form and on submit by the server.
   */
  requiredWhen?: FieldCondition;
  /**
   * In the form and accepted on submit only while the condition holds; otherwise the form hides
   * the field and the server ignores its value (the stored one stays).
   */
  visibleWhen?: FieldCondition;
  /** Message when a required value is missing; default 请输入<label> / 请选择<label>. */
  requiredMessage?: LocalText;
  pattern?: PatternRule;
  /** Column default; also the form's initial value. Without one, text columns default to ''. */
  default?: string | number | boolean;
  /** The column may be NULL (datetime and unset numbers). */
  nullable?: boolean;
  control?: FieldControl;
  options?: OptionSource;
  /** Shown in the search bar and accepted as a filter. */
  search?: boolean;
  /**
   * Accepted as a list filter without a search-bar input: a filter the BladeX family's screens
   * send (the dictionaries' `remark`) that our own screens do not offer.
   */
  filter?: boolean;
  /** Accepted in `ascs` / `descs`. */
  sort?: boolean;
  /** A table column (default: yes, except text, secret and hidden fields). */
  list?: boolean;
  /**
   * `'low'`: a column the table shows on a wide screen only (≥ 1600 px, antd's xxl). Narrower, it
   * gives its room to the others, so that the key columns (status, start, result) stay in view
   * beside the fixed action column instead of behind it; the view dialog and the export keep it.
   */
  listPriority?: 'low';
  /**
   * In the add/edit form: `true` editable (default), `'create'` only when adding, `'readonly'`
   * shown but not editable, `false` not in the form (and ignored on submit).
   */
  form?: boolean | 'create' | 'readonly';
  /**
   * Written only by a route of the module's own (its path under `/api`, within the resource's
   * `api`): a designer's save, say, whose value the generic dialog cannot edit. Not in the add,
   * edit or view dialog, not a table column by default, never taken by the generic submit (an
   * update keeps the stored value, an add stores the column default), answered by detail. Give it
   * no `form`.
   */
  savedBy?: string;
  /**
   * `secret` only: kept encrypted with the installation key so that the server can use it
   * (signing a provider request, connecting to a database). Without it a module stores the
   * secret itself (for example as a hash, for client secrets).
   */
  sealed?: boolean;
  /**
   * `string` only: a finite JSON number is taken as its decimal text (`-1` → `"-1"`) instead of
   * being refused, for a key the BladeX family's screens edit in a number column (the dictionary's
   * `dictKey`). Other text fields refuse numbers (validate.ts).
   */
  numberAsText?: boolean;
  /**
   * `string` only: a credential shown only in part (`LTAI****9xQk`) in every reply and export.
   * Submitting the masked text back unchanged keeps the stored value.
   */
  masked?: boolean;
  /** Table column width in pixels. */
  width?: number;
  /** Form item spans the whole dialog row. */
  wide?: boolean;
  /**
   * `text` and `string` only: how the view dialog shows the value. `json`: as indented JSON in a
   * monospace, scrollable box (a message payload); text that is not JSON is shown as it is.
   */
  display?: 'json';
}

export type FieldMap = Record<string, FieldDef>;

/**
 * Who owns the rows:
 * - `tenant`: every row has `tenant_id`; callers see and change only their tenant's rows;
 * - `platform`: shared rows only the platform tenant (000000) may read or change;
 * - `shared`: shared rows every tenant may read, only the platform tenant may change.
 */
export type ResourceOwner = 'tenant' | 'platform' | 'shared';

/**
 * `enable`: `POST <api>/enable?id=` makes that row the tenant's one enabled row (status 2) and
 * every other row of the tenant disabled (status 1), as BladeX does for SMS and OSS configs.
 * `select`: `GET <api>/select?tenantId=` answers every row as an array for a picker (BladeX's
 * `select`): the caller's tenant's, or those of the tenant a platform caller names.
 */
export type ResourceOperation = 'list' | 'page' | 'detail' | 'submit' | 'remove' | 'export' | 'enable' | 'select';

/**
 * A `select` that answers less, or other rows, than every row of the caller's tenant: the
 * family's tenant picker (two fields; a tenant sees its own tenant) and region pickers (the
 * children of one region). Declared, so the engine serves it and no module writes the route.
 */
export interface SelectDef {
  /** Any signed-in user may call it (pickers on every tenant's forms), not only holders of `<code>:read`. */
  anyUser?: boolean;
  /** Each row carries `id` and only these fields (the others may be confidential). */
  fields?: readonly string[];
  /**
   * Only the rows whose `field` equals the query parameter `param`; `root` when it is absent.
   * The value must pass the rules of the field `checkAs` (default `field`), else a 400.
   */
  children?: { param: string; field: string; root: string; checkAs?: string };
  /**
   * A platform-owned resource whose rows carry `tenantId` (the tenants themselves): other
   * tenants' callers get the rows of their own tenant instead of a 403.
   */
  ownTenantRows?: boolean;
}

export interface IndexDef {
  /** Index name; `<table>_<columns>_uq|_idx` by default. */
  name?: string;
  /** Field names; `tenantId` is allowed on tenant-owned resources. */
  fields: readonly string[];
  unique?: boolean;
  /** Message when a unique index refuses a submit. */
  message?: LocalText;
}

export interface DataScopeDef {
  /** Column holding the row's owner user (own scope); default `create_user`. */
  userColumn?: string;
  /** Column holding the row's department; default `create_dept`. */
  deptColumn?: string;
  /** The department column holds comma-joined ids (users belong to several departments). */
  deptColumnIsList?: boolean;
}

export interface ResourceDef<F extends FieldMap = FieldMap> {
  /** Menu code and permission prefix: buttons are `<code>_add`, `_edit`, `_delete`, `_view`, `_export`. */
  code: string;
  title: LocalText;
  table: string;
  /** Route prefix under `/api`, e.g. `/blade-system/post`. */
  api: string;
  owner: ResourceOwner;
  /**
   * Tenant-owned rows the platform tenant (000000) reads across every tenant, as BladeX's
   * platform does with users, roles, departments and logs: the list, detail and export show
   * every tenant's rows (with `tenantName`) and take a `tenantId` filter. Writes stay within
   * the caller's tenant; other tenants see only their own rows and their `tenantId` is ignored.
   */
  platformSeesAllTenants?: boolean;
  /** Which generic routes exist; default list|page (as `listRoute`), detail, submit, remove, export. */
  operations?: readonly ResourceOperation[];
  /**
   * The list route's name: `list` or `page`. Both answer a page, except the `list` of a tree
   * resource: it answers the whole forest (BladeX's tree lists, `current` and `size` ignored),
   * and the resource then also has `page` for a page of flat rows.
   */
  listRoute?: 'list' | 'page';
  /**
   * The list also answers under this other name, with the same page (not for tree resources,
   * whose `page` already exists): the name the spec's or the family's calls use where our
   * screens use `listRoute`.
   */
  listAlias?: 'list' | 'page';
  /**
   * Rows form a tree through this field (parent id, 0 at the root). Replies carry `parentName`
   * (the parent's `title` field, 顶级 at the root).
   */
  tree?: { parent: string; title: string };
  /** List, detail and export apply the caller's data scope. */
  dataScope?: DataScopeDef;
  fields: F;
  indexes?: readonly IndexDef[];
  /** Default order when the client asks for none. */
  defaultSort?: readonly { field: string; desc?: boolean }[];
  /** Soft delete and the BladeX audit columns; default true. */
  audit?: boolean;
  /** Dialog width of the add/edit/view dialog. */
  dialogWidth?: number;
  /**
   * One line above the list saying what the screen holds, for a screen whose name alone does
   * not tell a user (issue 30: `oenmo`).
   */
  summary?: LocalText;
  /** Its place in the side menu, buttons and API scopes (the registry reads it). */
  menu?: ResourceMenu;
  /** What `select` answers where it is not every row of the caller's tenant. */
  select?: SelectDef;
  /**
   * An append-only series: the table is partitioned by this time field, lists always read a
   * bounded range of it (default the last 24 h) and old partitions are dropped (docs/series.md).
   */
  series?: SeriesDef;
  /**
   * Child rows edited, validated, saved and removed with each row (resource/children.ts), by
   * the name they travel under in submit and detail.
   */
  children?: ChildCollections;
  /**
   * Set by `defineChildResource`: this definition's rows belong to a parent through `field`, in
   * the order of `orderField`; a parent's collection of them need not repeat either.
   */
  childOf?: { field: string; orderField: string };
  /**
   * An aggregate (`defineAggregate`, resource/aggregate.ts): rows read from a view or a query,
   * read-only, no table of its own.
   */
  source?: AggregateSource;
  /**
   * Regulated records (`defineRecordResource`, resource/records.ts): hash-chained per tenant and
   * `chainBy`, reviewed, corrected by new versions, removed only after their retention.
   */
  records?: RecordRules;
}

/** Status values of resources with the `enable` operation (the yes_no dictionary: 1 否, 2 是). */
export const EnableStatus = { disabled: 1, enabled: 2 } as const;

/** Declares a resource; the identity keeps field names as literal types. */
export function defineResource<F extends FieldMap, O extends ResourceOwner>(
  def: ResourceDef<F> & { owner: O },
): ResourceDef<F> & { owner: O } {
  return def;
}

export const ALL_OPERATIONS: readonly ResourceOperation[] = ['list', 'detail', 'submit', 'remove', 'export'];

export function operationsOf(def: ResourceDef): readonly ResourceOperation[] {
  return def.operations ?? ALL_OPERATIONS;
}

/** `createTime` → `create_time`. */
export const toSnake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const columnOf = (name: string, field: FieldDef) => field.column ?? toSnake(name);

export function controlOf(field: FieldDef): FieldControl {
  if (field.control) return field.control;
  if (field.options) return 'select';
  switch (field.kind) {
    case 'text':
      return 'textarea';
    case 'int':
    case 'decimal':
      return 'number';
    case 'boolean':
      return 'switch';
    case 'datetime':
      return 'datetime';
    case 'date':
      return 'date';
    case 'json':
      return 'json';
    case 'reference':
      return field.reference?.to().tree ? 'tree-select' : 'select';
    case 'secret':
      return 'password';
    default:
      return 'input';
  }
}

export const isListed = (field: FieldDef) =>
  field.list ??
  (field.kind !== 'text' &&
    field.kind !== 'secret' &&
    field.kind !== 'json' &&
    field.form !== false &&
    field.savedBy === undefined);

/** The generic submit takes the field (a field saved by its own route never is). */
export const isSubmittable = (field: FieldDef, adding: boolean) =>
  field.savedBy === undefined &&
  (field.form === undefined || field.form === true || (field.form === 'create' && adding));

/** `LTAI5tAbCdEf9xQk` → `LTAI****9xQk`; short values show nothing but the stars. */
export function maskCredential(value: string): string {
  if (!value) return '';
  if (value.length <= 8) return '****';
  return `${value.slice(0, 4)}****${value.slice(-4)}`;
}

/** BladeX's `parentName` of a root row. */
export const ROOT_PARENT_NAME = '顶级';

/** The view field that carries a field's display name: `category` → `categoryName`. */
export const displayNameOf = (field: string) => `${field}Name`;

/**
 * Fields whose replies carry a display name beside the value (`sex` → `sexName`): every field
 * whose options come from a system or business dictionary, as BladeX's wrappers add them.
 */
export function dictionaryFields(def: ResourceDef): { name: string; source: { dict: string } | { dictBiz: string } }[] {
  const out: { name: string; source: { dict: string } | { dictBiz: string } }[] = [];
  for (const [name, field] of Object.entries(def.fields)) {
    const source = field.options;
    if (source && ('dict' in source || 'dictBiz' in source)) out.push({ name, source });
  }
  return out;
}

/** The precision and scale of a `decimal` field. */
export const decimalShapeOf = (field: FieldDef): DecimalShape => ({
  precision: field.precision ?? DEFAULT_DECIMAL_SHAPE.precision,
  scale: field.scale ?? DEFAULT_DECIMAL_SHAPE.scale,
});

/** The `reference` fields of a resource with their targets. */
export function referenceFields(def: ResourceDef): { name: string; field: FieldDef; reference: FieldReference }[] {
  return Object.entries(def.fields).flatMap(([name, field]) =>
    field.kind === 'reference' && field.reference ? [{ name, field, reference: field.reference }] : [],
  );
}

/** Largest page a picker of referenced rows asks for (the list routes' own cap). */
const REFERENCE_OPTIONS_PAGE = 1000;

/**
 * Where a field's choices come from: its declared `options`, or for a `reference` the target's
 * rows, through its `select` route when it has one, else its list route (a tree target's list
 * answers the whole forest). The value of each choice is the row id, its label the `label` field.
 */
export function optionSourceOf(field: FieldDef): OptionSource | undefined {
  if (field.options || field.kind !== 'reference' || !field.reference) return field.options;
  const target = field.reference.to();
  const ops = operationsOf(target);
  const url = ops.includes('select')
    ? `${target.api}/select`
    : `${target.api}/${target.listRoute ?? 'list'}?size=${REFERENCE_OPTIONS_PAGE}`;
  const { where, matches } = field.reference;
  return {
    url,
    label: field.reference.label,
    value: 'id',
    ...(where ? { where } : {}),
    ...(matches ? { match: matches.targetField } : {}),
  };
}

/** Whether a row satisfies a condition (values compared as text, as `visibleWhen` compares them). */
export const rowMeets = (condition: FieldCondition, row: Record<string, unknown>): boolean =>
  condition.in.some((v) => String(v) === String(row[condition.field]));

/** Permission (button) codes of a resource. */
export const permissionCodes = (code: string) => ({
  add: `${code}_add`,
  edit: `${code}_edit`,
  remove: `${code}_delete`,
  view: `${code}_view`,
  export: `${code}_export`,
});

/** API-scope codes of a resource's generic routes: reading (list, detail, export) and writing. */
export const apiScopeCodes = (code: string) => ({ read: `${code}:read`, write: `${code}:write` });

/**
 * Aggregate resources (docs/resources.md, "Aggregate resources"): a definition whose rows are
 * read from a SQL view or from a query the server supplies (ledgers, dashboards, report sources,
 * the failed jobs), with the filters, sorting, paging, export and tenant / data scoping of a
 * table-backed resource, and no writes.
 *
 * - `{ view }`: a view created by a migration. It exposes `id`, a column per field (snake_case of
 *   the field name, or the field's `column`), `tenant_id` when the definition is tenant-owned, and
 *   the data-scope columns (`create_user`, `create_dept` by default) when it declares `dataScope`.
 * - `{ query: true }`: the module bound to the definition hands the engine a query with those
 *   same columns (`aggregateTable` on the server); the engine reads `(<query>) as <alias>`.
 *
 * `key` is the type of the `id` column: a 64-bit id (default) or text (a uuid, a composite key).
 * The generic `detail` takes 64-bit ids, so a text-keyed aggregate has no `detail` by default
 * (the web view dialog then shows the listed row).
 */
export type AggregateSource = ({ view: string } | { query: true }) & { key?: 'id' | 'text' };

/**
 * Child rows (issue 13): rows of another resource that belong to one parent row and are edited,
 * validated, saved and removed with it — a product's model fields, a line's ordered stops. The
 * child is a plain `defineResource` (its table, fields and rules), declared on the parent under
 * the name its rows travel by: the submit body and the detail reply carry them as an array
 * `parent[<name>]`.
 */
export interface ChildCollection {
  /**
   * The child rows' definition. A function, as for references, so that parent and child may
   * name each other. A child that has no screen of its own need not be in the registry; its
   * table then comes from the schema (a link table) or, in a test, from the definition.
   */
  resource: () => ResourceDef;
  /**
   * The child field holding the parent's id (an `id` field, `form: false`). Defaults to the
   * parent field of a child made by {@link defineChildResource}.
   */
  parentField?: string;
  /**
   * The child field holding the row's position (an `int` field, `form: false`): rows keep the
   * order they are sent in, numbered from 1; detail answers them in that order. Defaults to
   * `sort` for a child made by {@link defineChildResource}.
   */
  orderField?: string;
  /**
   * Rows are numbered from 1 within each value of this child field and read grouped by it (a
   * line's stops per direction, as `dept/listByLine` has always numbered them).
   */
  orderGroup?: string;
  /** The collection's name in messages, the form and the operation log (站点). */
  label: LocalText;
  /** Fewest rows a parent may have (default 0). */
  min?: number;
  /** Most rows a parent may have (default 200). */
  max?: number;
  /**
   * No two rows may share the values of these child fields (a stop appears once per direction):
   * refused with `message` naming the later row.
   */
  unique?: { fields: readonly string[]; message: LocalText };
}

export type ChildCollections = Readonly<Record<string, ChildCollection>>;

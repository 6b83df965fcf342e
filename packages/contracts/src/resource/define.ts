/**
 * One definition per resource (ARCHITECTURE.md): the fields of an entity with their types,
 * labels, rules and list/form behaviour. The server builds the table, validation, routes,
 * permission codes and OpenAPI from it; the web app builds the CRUD screen from it.
 */

/** Text in both interface languages; the type makes a missing translation a compile error. */
export interface LocalText {
  zh: string;
  en: string;
}

/**
 * How a value is stored and travels:
 * - `string`: varchar(max); `text`: unbounded text;
 * - `int`: integer; `decimal`: numeric, travels as a number;
 * - `id`: a 64-bit id as a decimal string; `ids`: comma-joined ids;
 * - `datetime`: timestamptz, travels as `yyyy-MM-dd HH:mm:ss`;
 * - `secret`: stored encrypted, accepted on submit, never sent back.
 */
export type FieldKind = 'string' | 'text' | 'int' | 'decimal' | 'id' | 'ids' | 'datetime' | 'secret';

/** The input a form shows for a field; derived from the kind when not given. */
export type FieldControl =
  | 'input'
  | 'textarea'
  | 'number'
  | 'select'
  | 'radio'
  | 'tree-select'
  | 'datetime'
  | 'password'
  | 'multi-select'
  | 'multi-tree-select';

/** Where a select's options come from. */
export type OptionSource =
  /** A system dictionary (`/blade-system/dict/dictionary?code=`). */
  | { dict: string }
  /** A business dictionary of the caller's tenant. */
  | { dictBiz: string }
  /** Another endpoint returning `[{title|label, value|key|id, children?}]` or an entity list. */
  | { url: string; label?: string; value?: string }
  /** A fixed list. */
  | { items: readonly { value: string | number; label: LocalText }[] };

export interface PatternRule {
  /** A JavaScript regular expression source, anchored by the author. */
  regex: string;
  message: LocalText;
}

export interface FieldDef {
  kind: FieldKind;
  label: LocalText;
  /** Column name; snake_case of the field name by default. */
  column?: string;
  /** varchar length and the longest value accepted (characters). */
  max?: number;
  /** Smallest and largest number accepted (int and decimal). */
  range?: readonly [number, number];
  required?: boolean;
  /** Message when a required value is missing; default 请输入<label> / 请选择<label>. */
  requiredMessage?: LocalText;
  pattern?: PatternRule;
  /** Column default; also the form's initial value. Without one, text columns default to ''. */
  default?: string | number;
  /** The column may be NULL (datetime and unset numbers). */
  nullable?: boolean;
  control?: FieldControl;
  options?: OptionSource;
  /** Shown in the search bar and accepted as a filter. */
  search?: boolean;
  /** Accepted in `ascs` / `descs`. */
  sort?: boolean;
  /** A table column (default: yes, except text, secret and hidden fields). */
  list?: boolean;
  /**
   * In the add/edit form: `true` editable (default), `'create'` only when adding, `'readonly'`
   * shown but not editable, `false` not in the form (and ignored on submit).
   */
  form?: boolean | 'create' | 'readonly';
  /**
   * `secret` only: kept encrypted with the installation key so that the server can use it
   * (signing a provider request, connecting to a database). Without it a module stores the
   * secret itself (for example as a hash, for client secrets).
   */
  sealed?: boolean;
  /**
   * `string` only: a credential shown only in part (`LTAI****9xQk`) in every reply and export.
   * Submitting the masked text back unchanged keeps the stored value.
   */
  masked?: boolean;
  /** Table column width in pixels. */
  width?: number;
  /** Form item spans the whole dialog row. */
  wide?: boolean;
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
 */
export type ResourceOperation = 'list' | 'page' | 'detail' | 'submit' | 'remove' | 'export' | 'enable';

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
   * Tenant-owned rows the platform tenant (000000) reads and changes across every tenant, as
   * the platform administrator does with logs; other tenants still see only their own.
   */
  platformSeesAllTenants?: boolean;
  /** Which generic routes exist; default list|page (as `listRoute`), detail, submit, remove, export. */
  operations?: readonly ResourceOperation[];
  /** The list route's name: `list` or `page` (both answer a page). */
  listRoute?: 'list' | 'page';
  /** Rows form a tree through this field (parent id, 0 at the root). */
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
    case 'datetime':
      return 'datetime';
    case 'secret':
      return 'password';
    default:
      return 'input';
  }
}

export const isListed = (field: FieldDef) =>
  field.list ?? (field.kind !== 'text' && field.kind !== 'secret' && field.form !== false);

export const isSubmittable = (field: FieldDef, adding: boolean) =>
  field.form === undefined || field.form === true || (field.form === 'create' && adding);

/** `LTAI5tAbCdEf9xQk` → `LTAI****9xQk`; short values show nothing but the stars. */
export function maskCredential(value: string): string {
  if (!value) return '';
  if (value.length <= 8) return '****';
  return `${value.slice(0, 4)}****${value.slice(-4)}`;
}

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

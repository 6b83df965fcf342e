import type { ComponentType, ReactNode } from 'react';
import type { FieldDef, ListedRow, LocalText, ResourceDef } from '@mes/contracts';
import type { Option } from './options';

/** A row as the list and detail routes send it. */
export type Row = ListedRow;

export type FormMode = 'add' | 'edit' | 'view';

/** What a screen's extensions may use of the generic page. */
export interface ResourcePageContext {
  /** Rows ticked in the table. */
  selectedRows: Row[];
  /** Reloads the current page (after a custom action changed rows). */
  reload(): void;
  /** Whether the signed-in user holds a button code (`user_role`, `post_add`, ...). */
  can(code: string): boolean;
  /**
   * Opens the add / edit / view dialog; `initial` pre-fills an add (for example a parent id);
   * `submitPath` saves to `<api>/<submitPath>` instead of `submit` (a record's correction).
   */
  openForm(mode: FormMode, row?: Row, initial?: Record<string, unknown>, options?: { submitPath?: string }): void;
  /**
   * The list's query as the export sends it (the search bar's filters, the screen's `params`,
   * the sort; no paging): for a screen's own view of the same rows (a printable register).
   */
  listQuery: Record<string, string | number | undefined>;
}

/**
 * What a screen's own input for one field receives (`inputs`). The dialog's Form.Item passes
 * `id`, `value`, `onChange` and `onBlur` as to any antd control: the value is the one the form
 * holds for the field's control (see form-values.ts), and `onChange(value)` sets it.
 */
export interface CustomInputProps {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  /** Fires the field's check for typed controls (they are checked on blur, not on each key). */
  onBlur?: () => void;
  /** Shown, not edited (the view dialog, a read-only field): show the value readably. */
  disabled?: boolean;
  /** The field's definition with the screen's overrides. */
  field: FieldDef;
  /** The field's options, when its definition names a source. */
  options?: Option[];
  lang: keyof LocalText;
  mode: FormMode;
}

/** An extra column for view fields the definition does not hold (`roleName`, `deptName`). */
export interface ExtraColumn {
  key: string;
  title: string;
  width?: number;
  render?: (row: Row) => ReactNode;
}

/**
 * The generic CRUD screen of one resource (`<ResourcePage resource={postResource} />`): search
 * bar, table, pagination, add / edit / view dialog, batch delete and export, all from the
 * definition. The optional props are the hooks a screen uses instead of copying the page.
 */
export interface ResourcePageProps {
  resource: ResourceDef;
  /** Route that answers the list (default `<api>/<listRoute>`), e.g. a dictionary's `<api>/parent-list`. */
  listUrl?: string;
  /** Extra query parameters for list and export (e.g. `deptId` from a side tree); a change reloads page 1. */
  params?: Record<string, string | undefined>;
  /**
   * How often (ms) the list reads itself again given the rows it shows, or `false`: a screen
   * whose rows are work under way (a report being made) follows it until it is done.
   */
  refreshEvery?: (rows: Row[]) => number | false;
  /** Buttons after add / delete / export in the toolbar. */
  toolbar?: (ctx: ResourcePageContext) => ReactNode;
  /** Buttons after view / edit / delete in each row. */
  rowActions?: (row: Row, ctx: ResourcePageContext) => ReactNode;
  /** Cell renderers by field name, replacing the default (dictionary label, date, text). */
  render?: Partial<Record<string, (value: unknown, row: Row) => ReactNode>>;
  extraColumns?: ExtraColumn[];
  /** Per-screen changes to field definitions (e.g. make `code` read-only on this screen). */
  fieldOverrides?: Partial<Record<string, Partial<FieldDef>>>;
  /**
   * Inputs by field name that replace the generic control in the add / edit / view dialog (a
   * rich-text editor, a picker whose choices depend on another field). The field's label, checks,
   * conditions and submit stay the engine's. Define the map outside the component.
   */
  inputs?: Partial<Record<string, ComponentType<CustomInputProps>>>;
  /**
   * Values a new row starts with, computed each time the add dialog opens (a release time of
   * now); the definition's defaults fill the other fields, and `openForm`'s `initial` wins.
   */
  addValues?: () => Record<string, unknown>;
  /**
   * Changes the form values before they are submitted (e.g. hash a password). Throwing an Error
   * refuses the submit: its message is shown and the dialog stays open with what was typed.
   */
  beforeSubmit?: (values: Record<string, unknown>, mode: FormMode) => Record<string, unknown>;
  /** Content beside the table, on the left (e.g. the department tree of the user screen). */
  aside?: ReactNode;
  /** Called after a successful add, edit or delete. */
  onChanged?: () => void;
  /** Dialog width; default the definition's `dialogWidth` or 720. */
  dialogWidth?: number;
  /**
   * Tree resources: which rows offer 新增子项 (all by default; e.g. menus but not buttons).
   * Define it outside the component, or memoise it, so cells are not rebuilt.
   */
  canAddChild?: (row: Row) => boolean;
  /** The 查看 button opens this instead of the generic view dialog (a log's detail drawer). */
  onView?: (row: Row) => void;
  /** Rows are created elsewhere (attachments by upload): no 新增 button, edit and view only. */
  noAdd?: boolean;
  /** Tree resources: show the rows as a tree table (default true when the definition has `tree`). */
  treeTable?: boolean;
}

import { Grid, Table, type CheckboxProps, type TableColumnsType, type TableProps } from 'antd';
import { memo, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isListed, namedValueText, type FieldMap, type LocalText } from '@mes/contracts';
import { hasKindCell, kindCell } from './cell-values';
import { EmptyState } from './empty-state';
import { PAGE_SIZES, type TableState } from './list-params';
import { labelOf } from './options';
import type { ExtraColumn, ResourcePageProps, Row } from './resource-page-types';
import { SelectAllTitle } from './select-all-title';

/** Above this page size the table renders only the rows in view. */
export const VIRTUAL_FROM = 50;
const DEFAULT_WIDTH = 150;
const SELECTION_WIDTH = 48;
const VIRTUAL_HEIGHT = 560;

export interface ResourceTableProps {
  fields: FieldMap;
  lang: keyof LocalText;
  labels: Record<string, Map<string, string>>;
  render: ResourcePageProps['render'];
  extraColumns: ExtraColumn[] | undefined;
  rows: Row[];
  total: number;
  loading: boolean;
  state: TableState;
  /** Rows as a forest, without pagination. */
  tree: boolean;
  selectedKeys: string[];
  onSelect(keys: string[], rows: Row[]): void;
  onPage(current: number, size: number): void;
  onSort(ascs: string | undefined, descs: string | undefined): void;
  /** The search bar's filters narrow the rows (the empty state then offers to clear them). */
  filtered: boolean;
  onResetFilters(): void;
  /** The buttons of a row; stable between renders so cells are not rebuilt on selection. */
  actions: ((row: Row) => ReactNode) | undefined;
  actionsWidth: number;
}

type Columns = TableColumnsType<Row>;

/** Table columns of a definition: listed fields (option labels, sorters), extra columns, actions. */
export function buildColumns(p: {
  fields: FieldMap;
  lang: keyof LocalText;
  labels: Record<string, Map<string, string>>;
  render: ResourcePageProps['render'];
  extraColumns: ExtraColumn[] | undefined;
  state: Pick<TableState, 'ascs' | 'descs'>;
  actions: ((row: Row) => ReactNode) | undefined;
  actionsWidth: number;
  actionsTitle: string;
  /** A wide screen (≥ 1600 px): the low-priority columns show too. */
  wide?: boolean;
}): Columns {
  const columns: Columns = Object.entries(p.fields)
    .filter(([, f]) => isListed(f) && (p.wide !== false || f.listPriority !== 'low'))
    .map(([name, field]) => {
      const custom = p.render?.[name];
      const labels = p.labels[name];
      return {
        key: name,
        dataIndex: name,
        title: field.label[p.lang],
        width: field.width ?? DEFAULT_WIDTH,
        ellipsis: true,
        sorter: field.sort ? true : undefined,
        sortOrder: p.state.ascs === name ? 'ascend' : p.state.descs === name ? 'descend' : null,
        render: custom
          ? (value: unknown, row: Row) => custom(value, row)
          : field.options
            ? (value: unknown) => labelOf(labels, value)
            : hasKindCell(field)
              ? (_: unknown, row: Row) => kindCell(field, name, row, p.lang)
              : // A value the reply names (`<field>Label`: an enumerated trigger value) reads `灭菌 (3)`.
                (value: unknown, row: Row) => namedValueText(row, name, p.lang) ?? (value as ReactNode),
      };
    });
  for (const extra of p.extraColumns ?? []) {
    columns.push({
      key: extra.key,
      dataIndex: extra.key,
      title: extra.title,
      width: extra.width ?? DEFAULT_WIDTH,
      ellipsis: true,
      render: extra.render ? (_: unknown, row: Row) => extra.render!(row) : undefined,
    });
  }
  if (p.actions) {
    const actions = p.actions;
    columns.push({
      key: '__actions',
      title: p.actionsTitle,
      fixed: 'right',
      width: p.actionsWidth,
      render: (_: unknown, row: Row) => actions(row),
    });
  }
  return columns;
}

/** The list: columns from the definition, paging and sorting, selection, tree or virtual body. */
export const ResourceTable = memo(function ResourceTable(props: ResourceTableProps) {
  const { t } = useTranslation('crud');
  const { fields, lang, labels, render, extraColumns, actions, actionsWidth, state, tree } = props;
  const { ascs, descs } = state;
  const actionsTitle = t('actions');
  // Filtered here rather than hidden by antd's `responsive`, so that the scroll width counts
  // only the columns shown (a width with hidden columns in it scrolls the key ones away again).
  const wide = Grid.useBreakpoint().xxl ?? true;
  const columns = useMemo(
    () =>
      buildColumns({
        fields,
        lang,
        labels,
        render,
        extraColumns,
        state: { ascs, descs },
        actions,
        actionsWidth,
        actionsTitle,
        wide,
      }),
    [fields, lang, labels, render, extraColumns, ascs, descs, actions, actionsWidth, actionsTitle, wide],
  );
  const width = useMemo(
    () => columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : DEFAULT_WIDTH), SELECTION_WIDTH),
    [columns],
  );
  const virtual = !tree && state.size > VIRTUAL_FROM;
  const { onSelect, onPage, onSort, filtered, onResetFilters } = props;

  // Checkboxes carry names in the screen's language (antd's own are English or none).
  const selectRow = t('selectRow');
  const selectAll = t('selectAll');
  const rowSelection = useMemo<TableProps<Row>['rowSelection']>(
    () => ({
      selectedRowKeys: props.selectedKeys,
      columnWidth: SELECTION_WIDTH,
      fixed: true,
      columnTitle: (checkbox: ReactNode) => <SelectAllTitle checkbox={checkbox} />,
      getTitleCheckboxProps: () => ({ 'aria-label': selectAll }),
      getCheckboxProps: () => ({ 'aria-label': selectRow }) as Partial<CheckboxProps>,
      onChange: (keys, rows) => onSelect(keys.map(String), rows),
    }),
    [props.selectedKeys, onSelect, selectRow, selectAll],
  );
  const locale = useMemo(
    () => ({ emptyText: <EmptyState filtered={filtered} onResetFilters={onResetFilters} /> }),
    [filtered, onResetFilters],
  );

  const onChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = one?.order ? String(one.columnKey ?? one.field) : undefined;
      onSort(one?.order === 'ascend' ? field : undefined, one?.order === 'descend' ? field : undefined);
    } else if (extra.action === 'paginate') {
      onPage(pagination.current ?? 1, pagination.pageSize ?? state.size);
    }
  };

  return (
    <Table<Row>
      rowKey="id"
      size="middle"
      bordered
      columns={columns}
      dataSource={props.rows}
      loading={props.loading}
      rowSelection={rowSelection}
      onChange={onChange}
      virtual={virtual}
      scroll={virtual ? { x: width, y: VIRTUAL_HEIGHT } : { x: width }}
      locale={locale}
      data-testid="crud-table"
      pagination={
        tree
          ? false
          : {
              current: state.current,
              pageSize: state.size,
              total: props.total,
              showSizeChanger: true,
              showQuickJumper: true,
              pageSizeOptions: PAGE_SIZES.map(String),
              showTotal: (total) => t('total', { total }),
            }
      }
    />
  );
});

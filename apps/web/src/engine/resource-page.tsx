import { DeleteOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Tooltip, Typography } from 'antd';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SERIES_RANGE_HOURS,
  operationsOf,
  permissionCodes,
  type FieldMap,
  type ResourceDef,
  type ResourceOperation,
} from '@mes/contracts';
import { request } from '../api/http';
import { useScreenSize } from './use-screen-size';
import { useSession } from '../session/session-store';
import { download } from './download';
import { filterNames, hasCreatedRange, listParams } from './list-params';
import { ResourceForm, type FormTarget } from './resource-form';
import type { FormMode, ResourcePageContext, ResourcePageProps, Row } from './resource-page-types';
import { ResourceTable } from './resource-table';
import { useEnableOperation } from './enable-operation';
import { useRecordOperation } from './record-operation';
import { useRowActions } from './row-actions';
import { SearchBar } from './search-bar';
import { ToolbarButtons } from './toolbar';
import { useFieldOptions } from './use-field-options';
import { useResourceList } from './use-resource-list';
import { useTableState } from './use-table-state';
import { useTenantView } from './tenant-view';
import './crud.css';

const DEFAULT_DIALOG_WIDTH = 720;

/** The definition's fields with a screen's overrides applied. */
export function withOverrides(fields: FieldMap, overrides: ResourcePageProps['fieldOverrides']): FieldMap {
  if (!overrides) return fields;
  const out: FieldMap = {};
  for (const [name, field] of Object.entries(fields)) out[name] = { ...field, ...overrides[name] };
  return out;
}

/** Screens pass plain objects inline; their content, not their identity, decides a reload. */
function useStableValue<T>(value: T): T {
  const key = JSON.stringify(value ?? null);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => value, [key]);
}

/**
 * The generic CRUD screen of a resource, built from its definition: search bar, table with
 * paging, sorting and selection (a tree table for tree resources), add / edit / view dialog,
 * batch delete and export, each button shown only with its permission code.
 */
export function ResourcePage(props: ResourcePageProps) {
  const { t, i18n } = useTranslation('crud');
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  // The platform's view of every tenant adds a tenant filter and column where declared.
  const tenantView = useTenantView(props.resource, props.extraColumns, lang);
  const def: ResourceDef = tenantView.def;
  const { message, modal } = App.useApp();
  const permission = useSession((s) => s.permission);

  const overrides = useStableValue(props.fieldOverrides);
  const extraParams = useStableValue(props.params);
  const fields = useMemo(() => withOverrides(def.fields, overrides), [def, overrides]);
  const searchFields = useMemo(
    () => Object.fromEntries(Object.entries(fields).filter(([, f]) => f.search && f.kind !== 'secret')),
    [fields],
  );
  const names = useMemo(() => filterNames(def), [def]);
  const tree = !!def.tree && props.treeTable !== false;
  const operations = useMemo(() => new Set<ResourceOperation>(operationsOf(def)), [def]);
  const codes = permissionCodes(def.code);

  const [state, setState] = useTableState(names);
  const { options, labels } = useFieldOptions(fields, lang);

  // A change of the screen's own parameters (a side tree's department) starts at page 1.
  const [seenParams, setSeenParams] = useState(extraParams);
  if (seenParams !== extraParams) {
    setSeenParams(extraParams);
    if (state.current !== 1) setState((s) => ({ ...s, current: 1 }));
  }

  const listUrl = props.listUrl ?? `${def.api}/${def.listRoute ?? 'list'}`;
  const query = useMemo(() => listParams(state, extraParams, !tree), [state, extraParams, tree]);
  // What export sends (no paging); a screen's own view of the same rows reads it too (listQuery).
  const exportQuery = useMemo(() => listParams(state, extraParams, false), [state, extraParams]);
  const list = useResourceList(def.api, listUrl, query, props.refreshEvery);
  const { reload } = list;
  // Removing the last rows of the last page: show the last page that still has rows.
  const lastPage = Math.max(1, Math.ceil(list.total / state.size));
  if (!tree && !list.loading && !list.rows.length && list.total > 0 && state.current > lastPage)
    setState((s) => ({ ...s, current: lastPage }));

  // Selection belongs to the rows shown; new rows clear it.
  const [selected, setSelected] = useState<{ rows: Row[]; keys: string[]; of: Row[] }>({
    rows: [],
    keys: [],
    of: list.rows,
  });
  if (selected.of !== list.rows) setSelected({ rows: [], keys: [], of: list.rows });
  const onSelect = useCallback(
    (keys: string[], rows: Row[]) => setSelected((s) => ({ ...s, keys, rows: rows.filter(Boolean) })),
    [],
  );

  const onPage = useCallback(
    (current: number, size: number) => setState((s) => ({ ...s, current: size !== s.size ? 1 : current, size })),
    [setState],
  );
  const onSort = useCallback(
    (ascs: string | undefined, descs: string | undefined) => setState((s) => ({ ...s, ascs, descs, current: 1 })),
    [setState],
  );
  const onSearch = useCallback(
    (filters: Record<string, string>) => setState((s) => ({ ...s, filters, current: 1 })),
    [setState],
  );
  const resetFilters = useCallback(() => onSearch({}), [onSearch]);
  const filtered = Object.keys(state.filters).length > 0;
  // Screen class 0 (a phone): side panels above the table, toolbar folded into 更多.
  const phone = useScreenSize() === 0;

  const can = useCallback((code: string) => permission[code] === true, [permission]);
  const [target, setTarget] = useState<FormTarget | undefined>();
  const openForm = useCallback(
    (mode: FormMode, row?: Row, initial?: Record<string, unknown>, options?: { submitPath?: string }) =>
      setTarget({ mode, row, initial, submitPath: options?.submitPath }),
    [],
  );
  const closeForm = useCallback(() => setTarget(undefined), []);

  const { onChanged } = props;
  // Every read of the resource is stale now: this list, its own tree as a picker (a menu's
  // parent), a dictionary's entries, and the same lists on other screens and tabs.
  const changed = useCallback(() => {
    reload();
    onChanged?.();
  }, [reload, onChanged]);

  const { mutateAsync: removeRows } = useMutation({
    mutationFn: (ids: string[]) => request(`${def.api}/remove`, { method: 'POST', params: { ids: ids.join(',') } }),
    onSuccess: () => {
      void message.success(t('deleted'));
      changed();
    },
  });

  const remove = useCallback(
    (ids: string[]) => {
      if (!ids.length) {
        void message.warning(t('selectAtLeastOne'));
        return;
      }
      modal.confirm({
        title: t('tip'),
        content: t('confirmDelete'),
        okText: t('ok'),
        cancelText: t('cancel'),
        onOk: () => removeRows(ids).catch(() => undefined), // a failure was toasted by the client
      });
    },
    [message, modal, t, removeRows],
  );

  const [exporting, setExporting] = useState(false);
  const exportRows = async () => {
    setExporting(true);
    try {
      await download(`${def.api}/export`, exportQuery, `${def.code}.xlsx`, lang);
    } catch {
      // toasted by download
    } finally {
      setExporting(false);
    }
  };

  // Row buttons read the selection through a ref, so ticking a row does not rebuild every cell.
  const selectedRef = useRef<Row[]>([]);
  useEffect(() => {
    selectedRef.current = selected.rows;
  }, [selected.rows]);
  const rowCtx = useMemo<ResourcePageContext>(
    () => ({
      get selectedRows() {
        return selectedRef.current;
      },
      listQuery: exportQuery,
      reload,
      can,
      openForm,
    }),
    [reload, can, openForm, exportQuery],
  );
  const toolbarCtx: ResourcePageContext = {
    selectedRows: selected.rows,
    reload,
    can,
    openForm,
    listQuery: exportQuery,
  };

  const mayView = can(codes.view);
  // Records are never edited in place: a correction (record-operation.tsx) replaces 编辑.
  const mayEdit = operations.has('submit') && can(codes.edit) && !def.records;
  const mayRemove = operations.has('remove') && can(codes.remove);
  const mayAddChild = tree && operations.has('submit') && !props.noAdd && can(codes.add);
  const recordOperation = useRecordOperation(def, props.rowActions, props.toolbar);
  const enableOperation = useEnableOperation(
    def,
    operations.has('enable'),
    recordOperation.rowActions,
    tenantView.extraColumns,
  );
  const actions = useRowActions({
    mayView,
    mayEdit,
    mayRemove,
    resourceCode: def.code,
    childParentField: mayAddChild ? def.tree?.parent : undefined,
    canAddChild: props.canAddChild,
    openForm,
    remove,
    rowActions: enableOperation.rowActions,
    onView: props.onView,
    ctx: rowCtx,
  });

  const dialogWidth = props.dialogWidth ?? def.dialogWidth ?? DEFAULT_DIALOG_WIDTH;

  return (
    <div className={phone ? 'mes-crud mes-crud-phone' : 'mes-crud'} data-testid={`crud-${def.code}`}>
      {props.aside && <div className="mes-crud-aside">{props.aside}</div>}
      <div className="mes-crud-main">
        {def.summary && (
          <Typography.Paragraph type="secondary" className="mes-crud-summary" data-testid="crud-summary">
            {def.summary[lang]}
          </Typography.Paragraph>
        )}
        <SearchBar
          fields={searchFields}
          withCreatedRange={hasCreatedRange(def)}
          options={options}
          lang={lang}
          filters={state.filters}
          onSearch={onSearch}
          seriesRangeHours={def.series ? DEFAULT_SERIES_RANGE_HOURS : undefined}
          folded={phone}
        />
        <div className="mes-crud-toolbar">
          <ToolbarButtons
            compact={phone}
            buttons={[
              operations.has('submit') && !props.noAdd && can(codes.add) && (
                <Button
                  key="add"
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => openForm('add')}
                  data-testid="crud-add"
                >
                  {t('add')}
                </Button>
              ),
              mayRemove && (
                <Button
                  key="delete"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(selected.keys)}
                  data-testid="crud-delete"
                >
                  {t('delete')}
                </Button>
              ),
              operations.has('export') && can(codes.export) && (
                <Button
                  key="export"
                  icon={<DownloadOutlined />}
                  loading={exporting}
                  onClick={exportRows}
                  data-testid="crud-export"
                >
                  {t('export')}
                </Button>
              ),
              recordOperation.toolbar && <Fragment key="screen">{recordOperation.toolbar(toolbarCtx)}</Fragment>,
            ].filter(Boolean)}
          />
          <Tooltip title={t('refresh')}>
            <Button shape="circle" icon={<ReloadOutlined />} onClick={reload} data-testid="crud-reload" />
          </Tooltip>
        </div>
        <ResourceTable
          fields={fields}
          lang={lang}
          labels={labels}
          render={props.render}
          extraColumns={enableOperation.extraColumns}
          rows={list.rows}
          total={list.total}
          loading={list.loading}
          state={state}
          tree={tree}
          selectedKeys={selected.keys}
          onSelect={onSelect}
          onPage={onPage}
          onSort={onSort}
          actions={actions.render}
          actionsWidth={actions.width}
          filtered={filtered}
          onResetFilters={resetFilters}
        />
      </div>
      <ResourceForm
        def={def}
        fields={fields}
        target={target}
        lang={lang}
        options={options}
        width={dialogWidth}
        beforeSubmit={props.beforeSubmit}
        inputs={props.inputs}
        addValues={props.addValues}
        onClose={closeForm}
        onSaved={() => {
          closeForm();
          changed();
        }}
      />
      {recordOperation.dialog}
    </div>
  );
}

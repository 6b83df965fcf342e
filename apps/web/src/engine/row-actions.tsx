import { Button, Space } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormMode, ResourcePageContext, ResourcePageProps, Row } from './resource-page-types';

export interface RowActionsOptions {
  mayView: boolean;
  mayEdit: boolean;
  mayRemove: boolean;
  resourceCode: string;
  /** Tree resources: 新增子项 opens the add dialog with this row in this parent field. */
  childParentField: string | undefined;
  canAddChild: ResourcePageProps['canAddChild'];
  openForm(mode: FormMode, row?: Row, initial?: Record<string, unknown>): void;
  remove(ids: string[]): void;
  rowActions: ResourcePageProps['rowActions'];
  onView: ResourcePageProps['onView'];
  ctx: ResourcePageContext;
}

/**
 * The buttons of each row (view, edit, delete, then the screen's) and the column width they
 * need; the renderer keeps its identity while its inputs do, so cells are not rebuilt.
 */
export function useRowActions(o: RowActionsOptions) {
  const { t } = useTranslation('crud');
  const {
    mayView,
    mayEdit,
    mayRemove,
    resourceCode,
    childParentField,
    canAddChild,
    openForm,
    remove,
    rowActions,
    onView,
    ctx,
  } = o;
  const builtIn = Number(mayView) + Number(mayEdit) + Number(mayRemove) + Number(!!childParentField);
  // Sized for two-character link buttons (查看, 编辑): a wider fixed column covered the key
  // columns at 1440 px. A screen's buttons get the room of two; more wrap onto a second line.
  const width = Math.max(80, builtIn * 46 + (rowActions ? 92 : 0) + 16);
  const render = useMemo(() => {
    if (!builtIn && !rowActions) return undefined;
    return (row: Row): ReactNode => (
      <Space size={0} wrap className="mes-crud-row-actions">
        {mayView && (
          <Button
            type="link"
            size="small"
            onClick={() => (onView ? onView(row) : openForm('view', row))}
            data-testid="crud-row-view"
          >
            {t('view')}
          </Button>
        )}
        {mayEdit && (
          <Button type="link" size="small" onClick={() => openForm('edit', row)} data-testid="crud-row-edit">
            {t('edit')}
          </Button>
        )}
        {mayRemove && (
          <Button type="link" size="small" danger onClick={() => remove([row.id])} data-testid="crud-row-delete">
            {t('delete')}
          </Button>
        )}
        {childParentField && (canAddChild?.(row) ?? true) && (
          <Button
            type="link"
            size="small"
            onClick={() => openForm('add', undefined, { [childParentField]: row.id })}
            data-testid={`${resourceCode}-add-child`}
          >
            {t('addChild')}
          </Button>
        )}
        {rowActions?.(row, ctx)}
      </Space>
    );
  }, [
    builtIn,
    rowActions,
    onView,
    mayView,
    mayEdit,
    mayRemove,
    resourceCode,
    childParentField,
    canAddChild,
    openForm,
    remove,
    ctx,
    t,
  ]);
  return { render, width };
}

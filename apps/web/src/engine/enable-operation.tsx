import { Button, Tag } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { enableButtonCode, EnableStatus, type ResourceDef } from '@mes/contracts';
import { useConfirmedRowAction } from './confirmed-row-action';
import type { ExtraColumn, ResourcePageContext, ResourcePageProps, Row } from './resource-page-types';

export const isEnabledRow = (row: Row) => Number(row.status) === EnableStatus.enabled;

/**
 * What the `enable` operation (one enabled row per tenant: SMS and storage configurations) adds
 * to the generic page: a 启用/停用 status column (`<code>-status`) and, with `<code>_enable`, a
 * 启用 row button (`<code>-enable`) that asks first, since enabling one disables the others.
 * Pages of other resources get their own row actions and columns back unchanged.
 */
export function useEnableOperation(
  def: ResourceDef,
  enabled: boolean,
  rowActions: ResourcePageProps['rowActions'],
  extraColumns: ExtraColumn[] | undefined,
) {
  const { t } = useTranslation('crud');
  // Enabling one row disables the others: the whole resource is reloaded (ctx.reload
  // invalidates its reads, on this screen and any other showing it).
  const enable = useConfirmedRowAction(`${def.api}/enable`, 'id', t('enableConfirm'));

  const withEnable = useMemo(() => {
    if (!enabled) return rowActions;
    return (row: Row, ctx: ResourcePageContext): ReactNode => (
      <>
        {ctx.can(enableButtonCode(def.code)) && !isEnabledRow(row) && (
          <Button type="link" size="small" onClick={() => enable(row, ctx)} data-testid={`${def.code}-enable`}>
            {t('enable')}
          </Button>
        )}
        {rowActions?.(row, ctx)}
      </>
    );
  }, [enabled, rowActions, def.code, enable, t]);

  const columns = useMemo(() => {
    if (!enabled) return extraColumns;
    const status: ExtraColumn = {
      key: 'status',
      title: t('status'),
      width: 90,
      render: (row) => (
        <Tag color={isEnabledRow(row) ? 'success' : undefined} data-testid={`${def.code}-status`}>
          {isEnabledRow(row) ? t('enabled') : t('disabled')}
        </Tag>
      ),
    };
    return [status, ...(extraColumns ?? [])];
  }, [enabled, extraColumns, def.code, t]);

  return { rowActions: withEnable, extraColumns: columns };
}

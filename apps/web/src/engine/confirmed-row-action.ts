import { useMutation } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '@mes/contracts';
import { request } from '../api/http';
import type { ResourcePageContext, Row } from './resource-page-types';

/**
 * A row button's POST that asks first (`content`), then shows the server's message and reloads
 * the resource's reads (enable one configuration, review one record). `param` names the row as
 * the route wants it (`id`, `ids`).
 */
export function useConfirmedRowAction(url: string, param: 'id' | 'ids', content: string) {
  const { t } = useTranslation('crud');
  const { message, modal } = App.useApp();
  const { mutateAsync } = useMutation({
    mutationFn: ({ row }: { row: Row; ctx: ResourcePageContext }) =>
      request<ApiResult<boolean>>(url, { method: 'POST', params: { [param]: row.id } }),
    onSuccess: (answer, { ctx }) => {
      void message.success(answer.msg);
      ctx.reload();
    },
  });
  return useCallback(
    (row: Row, ctx: ResourcePageContext) =>
      modal.confirm({
        title: t('tip'),
        content,
        okText: t('ok'),
        cancelText: t('cancel'),
        // A failure: the HTTP client has shown the server's message.
        onOk: () => mutateAsync({ row, ctx }).catch(() => undefined),
      }),
    [mutateAsync, modal, t, content],
  );
}

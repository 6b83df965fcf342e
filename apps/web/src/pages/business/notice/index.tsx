import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { noticeResource, permissionCodes, type ResourceDef } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';
import type { ResourcePageContext, Row } from '../../../crud/resource-page-types';
import { NoticeEditor } from './notice-editor';

const codes = permissionCodes(noticeResource.code);
/**
 * The generic screen without its own add / edit (the notice's dialog holds the rich-text
 * editor and the audience pickers); list, view, delete and export stay generic.
 */
const screenDef: ResourceDef = { ...noticeResource, operations: ['list', 'detail', 'remove', 'export'] };
export const noticePath = (id: string) => `/business/notice/${id}`;

/** 通知公告: the notices of the tenant, written in a rich-text editor, each with its reader page. */
export default function NoticeScreen() {
  const { t } = useTranslation('notice');
  // undefined: closed; null: a new notice; an id: that notice.
  const [target, setTarget] = useState<string | null | undefined>();
  const reloadRef = useRef<() => void>(() => undefined);

  const toolbar = useCallback(
    (ctx: ResourcePageContext) => {
      reloadRef.current = ctx.reload;
      return ctx.can(codes.add) ? (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget(null)} data-testid="notice-add">
          {t('add')}
        </Button>
      ) : null;
    },
    [t],
  );
  const rowActions = useCallback(
    (row: Row, ctx: ResourcePageContext) => (
      <>
        {ctx.can(codes.edit) && (
          <Button type="link" size="small" onClick={() => setTarget(row.id)} data-testid="notice-row-edit">
            {t('edit')}
          </Button>
        )}
        <Link to={noticePath(row.id)} data-testid="notice-row-read" style={{ padding: '0 7px', fontSize: 14 }}>
          {t('read')}
        </Link>
      </>
    ),
    [t],
  );
  const render = useMemo(
    () => ({
      title: (value: unknown, row: Row) => (
        <Link to={noticePath(row.id)} data-testid="notice-title-link">
          {String(value ?? '')}
        </Link>
      ),
    }),
    [],
  );

  return (
    <>
      <ResourcePage resource={screenDef} toolbar={toolbar} rowActions={rowActions} render={render} />
      <NoticeEditor
        target={target}
        onClose={(changed) => {
          setTarget(undefined);
          if (changed) reloadRef.current();
        }}
      />
    </>
  );
}

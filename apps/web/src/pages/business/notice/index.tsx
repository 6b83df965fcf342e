import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, noticeResource, type FieldDef } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ResourcePageProps, Row } from '../../../engine/resource-page-types';
import { NoticeAudiencePicker, NoticeContentInput } from './notice-inputs';

export const noticePath = (id: string) => `/business/notice/${id}`;

/** The content in the rich-text editor, the audience from the role or department tree. */
const inputs: ResourcePageProps['inputs'] = { content: NoticeContentInput, audienceIds: NoticeAudiencePicker };
/** Several roles or departments, picked from their tree (the form holds them as a list). */
const fieldOverrides: Record<string, Partial<FieldDef>> = { audienceIds: { control: 'multi-tree-select' } };
/** A new notice is released now unless its writer picks another time. */
const addValues = () => ({ releaseTime: formatDateTime(new Date()) });

/** 通知公告: the notices of the tenant, written in a rich-text editor, each with its reader page. */
export default function NoticeScreen() {
  const { t } = useTranslation('notice');
  const rowActions = useCallback(
    (row: Row) => (
      <Link to={noticePath(row.id)} data-testid="notice-row-read" style={{ padding: '0 7px', fontSize: 14 }}>
        {t('read')}
      </Link>
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
    <ResourcePage
      resource={noticeResource}
      rowActions={rowActions}
      render={render}
      inputs={inputs}
      fieldOverrides={fieldOverrides}
      addValues={addValues}
    />
  );
}

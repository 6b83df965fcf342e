import { Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { disinfectionRecordResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';
import type { ResourcePageProps, Row } from '../../../crud/resource-page-types';

const TEXT = {
  zh: { recalled: '召回', handled: '召回已处理' },
  en: { recalled: 'Recalled', handled: 'Recall handled' },
};

/**
 * 消毒记录: the generic record screen, with a 召回 tag before the number of every record a failed
 * biological indicator recalled (rows carry `recalled` and `recallHandled`, docs/records.md), where
 * the eye starts reading a row rather than in a column off to the right.
 */
export default function DisinfectionScreen() {
  const { i18n } = useTranslation();
  const text = i18n.language.startsWith('en') ? TEXT.en : TEXT.zh;
  const render = useMemo<ResourcePageProps['render']>(
    () => ({
      recordNo: (value: unknown, row: Row) => (
        <>
          {row.recalled ? (
            <Tag color={row.recallHandled ? 'default' : 'red'} data-testid="disinfection-recalled">
              {row.recallHandled ? text.handled : text.recalled}
            </Tag>
          ) : null}
          <span title={String(value ?? '')}>{String(value ?? '')}</span>
        </>
      ),
    }),
    [text],
  );
  return <ResourcePage resource={disinfectionRecordResource} render={render} />;
}

import { Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { disinfectionRecordResource } from '@mes/contracts';
import { ResourcePage } from '../../../crud/resource-page';
import type { ExtraColumn, Row } from '../../../crud/resource-page-types';

const TEXT = {
  zh: { recall: '召回', recalled: '召回', handled: '召回已处理' },
  en: { recall: 'Recall', recalled: 'Recalled', handled: 'Recall handled' },
};

/**
 * 消毒记录: the generic record screen, with a 召回 tag on every record a failed biological
 * indicator recalled (the rows carry `recalled` and `recallHandled`, docs/records.md).
 */
export default function DisinfectionScreen() {
  const { i18n } = useTranslation();
  const text = i18n.language.startsWith('en') ? TEXT.en : TEXT.zh;
  const extraColumns = useMemo<ExtraColumn[]>(
    () => [
      {
        key: 'recalled',
        title: text.recall,
        width: 110,
        render: (row: Row) =>
          row.recalled ? (
            <Tag color={row.recallHandled ? 'default' : 'red'} data-testid="disinfection-recalled">
              {row.recallHandled ? text.handled : text.recalled}
            </Tag>
          ) : null,
      },
    ],
    [text],
  );
  return <ResourcePage resource={disinfectionRecordResource} extraColumns={extraColumns} />;
}

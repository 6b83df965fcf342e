import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { acquisitionResource } from '@mes/contracts';
import { ResourcePage } from '../../../engine/resource-page';
import type { ExtraColumn, Row } from '../../../engine/resource-page-types';
import { valuesText } from './values-text';

/**
 * 采集数据: the generic list of reports, plus a column of each report's values in which the
 * enumerated ones read by their names (`phase: 灭菌 (3)`); the view dialog keeps the raw JSON.
 */
export default function AcquisitionScreen() {
  const { i18n } = useTranslation();
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  const extraColumns = useMemo<ExtraColumn[]>(
    () => [
      {
        key: 'values',
        title: acquisitionResource.fields.dataValues.label[lang],
        width: 360,
        render: (row: Row) => (
          <span data-testid="acqdata-values">{valuesText(row.dataValues, row.valueLabels, lang)}</span>
        ),
      },
    ],
    [lang],
  );
  return <ResourcePage resource={acquisitionResource} extraColumns={extraColumns} />;
}

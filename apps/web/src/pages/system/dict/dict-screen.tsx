import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResourceDef } from '@mes/contracts';
import type { Row } from '../../../engine/resource-page-types';
import { DictChildDialog, DictParentList, useChildConfigAction } from './dict-lists';

/** 系统字典 / 业务字典: the dictionaries, each with its entries behind 字典配置. */
export function DictScreen({ resource }: { resource: ResourceDef }) {
  const { t } = useTranslation('dict');
  const [parent, setParent] = useState<Row | null>(null);
  const rowActions = useChildConfigAction(setParent, t('childConfig'));
  return (
    <div data-testid={`${resource.code}-screen`}>
      <DictParentList resource={resource} rowActions={rowActions} />
      <DictChildDialog resource={resource} parent={parent} onClose={() => setParent(null)} />
    </div>
  );
}

import { Card, Col, Row as GridRow } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { dictResource } from '@mes/contracts';
import type { Row } from '../../../engine/resource-page-types';
import { ChooseParent, DictChildList, DictParentList, useChildConfigAction } from './dict-lists';

/**
 * The two dictionary layouts of spec section 2 (/dict-horizontal/index, /dict-vertical/index):
 * the parent list and the entries of the chosen dictionary, side by side or one above the other.
 */
export function DictPanels({ layout }: { layout: 'horizontal' | 'vertical' }) {
  const { t } = useTranslation('dict');
  const [parent, setParent] = useState<Row | null>(null);
  const rowActions = useChildConfigAction(setParent, t('showChildren'), 'dict-show-children');
  // The entry list takes the URL's table state when it mounts and never changes it; remounting
  // it when the parent list moves (page, search) keeps the two from rewriting the URL in turn.
  // Only this screen's own URL counts: in a hidden tab the URL belongs to another screen.
  const { pathname, search } = useLocation();
  const [ownPath] = useState(pathname);
  const [ownSearch, setOwnSearch] = useState(search);
  if (pathname === ownPath && search !== ownSearch) setOwnSearch(search);
  const parentPanel = (
    <Card size="small" title={t('parentPanel')} data-testid="dict-parent-panel">
      <DictParentList resource={dictResource} rowActions={rowActions} />
    </Card>
  );
  const childPanel = (
    <Card
      size="small"
      title={parent ? t('childTitle', { name: parent.dictValue ?? '' }) : t('childPanel')}
      data-testid="dict-child-panel"
    >
      {parent ? (
        <DictChildList key={`${parent.id}${ownSearch}`} resource={dictResource} parent={parent} />
      ) : (
        <ChooseParent />
      )}
    </Card>
  );
  if (layout === 'vertical')
    return (
      <div data-testid="dict-vertical" style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        {parentPanel}
        {childPanel}
      </div>
    );
  return (
    <GridRow gutter={12} data-testid="dict-horizontal">
      <Col xs={24} xl={12}>
        {parentPanel}
      </Col>
      <Col xs={24} xl={12}>
        {childPanel}
      </Col>
    </GridRow>
  );
}

import { Button, Empty } from 'antd';
import { useTranslation } from 'react-i18next';

interface EmptyStateProps {
  /** The search bar narrows the list: say so, and offer to clear it. */
  filtered: boolean;
  onResetFilters(): void;
}

/** What an empty table shows: 暂无数据, or that the search matches nothing with a way back. */
export function EmptyState({ filtered, onResetFilters }: EmptyStateProps) {
  const { t } = useTranslation('crud');
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={filtered ? t('emptyFiltered') : t('empty')}
      data-testid="crud-empty"
    >
      {filtered && (
        <Button size="small" onClick={onResetFilters} data-testid="crud-empty-reset">
          {t('resetFilters')}
        </Button>
      )}
    </Empty>
  );
}

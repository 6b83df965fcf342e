import { Alert, Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * What a 我的事务 screen shows while what it reads loads (a skeleton), or when it cannot be read
 * (a warning with the reason): the leave screens and the model-form screens alike.
 */
export function ScreenFallback({
  loading,
  error,
  notFound,
  testId,
}: {
  loading: boolean;
  error: unknown;
  /** The `work` namespace's key of the "cannot be read" title. */
  notFound: string;
  testId: string;
}) {
  const { t } = useTranslation('work');
  if (loading)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  return (
    <Alert
      type="warning"
      showIcon
      message={t(notFound)}
      description={error instanceof Error ? error.message : undefined}
      data-testid={testId}
    />
  );
}

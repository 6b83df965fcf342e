import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { recordReactError } from './error-capture';

interface Props {
  children: ReactNode;
  /** When this changes (e.g. the route path), a failed screen gets another try. */
  resetKey?: string;
}

interface State {
  failed: boolean;
  resetKey?: string;
}

function Fallback({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('errorLog:boundaryTitle')}
      subTitle={t('errorLog:boundaryHint')}
      extra={
        <Button type="primary" onClick={onRetry} data-testid="error-boundary-retry">
          {t('errorLog:retry')}
        </Button>
      }
      data-testid="error-boundary"
    />
  );
}

/** Catches render errors below it, records them in the local error log and shows a retry. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null;
    return { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    recordReactError(error, info);
  }

  override render(): ReactNode {
    if (this.state.failed) return <Fallback onRetry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}

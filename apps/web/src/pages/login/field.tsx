import type { ReactNode } from 'react';

/** Plain inputs with their own required checks: antd Form would add ~35 KB to the first load. */
export function Field({ label, error, children }: { label: string; error?: string; children: ReactNode }) {
  return (
    <label className="mes-login-field">
      <span className="mes-login-label">{label}</span>
      {children}
      <span className="mes-login-help" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </span>
    </label>
  );
}

/**
 * A message above a sign-in form: an error (announced at once, `role="alert"`) or information
 * (`role="status"`). Renders nothing without text.
 */
export function LoginNotice({
  kind,
  children,
  testId,
}: {
  kind: 'error' | 'info';
  children: ReactNode;
  testId?: string;
}) {
  if (children === undefined || children === null || children === '' || children === false) return null;
  return (
    <div
      className={kind === 'error' ? 'mes-login-error' : 'mes-login-info'}
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      {children}
    </div>
  );
}

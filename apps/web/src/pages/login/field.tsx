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

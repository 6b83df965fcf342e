import { useEffect, useState } from 'react';
import type { ApiResult } from '@mes/contracts';

type Health = 'checking' | 'up' | 'down';

/** Placeholder until the console shell lands: shows whether the API answers. */
export function App() {
  const [health, setHealth] = useState<Health>('checking');
  useEffect(() => {
    fetch('/api/health')
      .then((r) => r.json() as Promise<ApiResult<{ status: string }>>)
      .then((body) => setHealth(body.success ? 'up' : 'down'))
      .catch(() => setHealth('down'));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>MES Console</h1>
      <p>
        服务状态 / API status: <strong data-testid="health">{health}</strong>
      </p>
    </main>
  );
}

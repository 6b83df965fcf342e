import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { readTableState, writeTableState, type TableState } from './list-params';

/**
 * The table's page, size, filters and sort, mirrored into the URL query so a reload or a shared
 * link shows the same rows. The URL is read when the screen mounts; afterwards the screen's own
 * state wins (tabs keep their state), and is written back whenever this screen's path is the
 * current one. Screens stay mounted in hidden tabs while the URL belongs to another screen, so
 * a hidden screen never touches it.
 */
export function useTableState(names: readonly string[]) {
  const { pathname } = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const [ownPath] = useState(pathname);
  const active = pathname === ownPath;
  const [state, setState] = useState<TableState>(() => readTableState(searchParams, names));

  // On activation (a tab switch may bring the tab's old query), after each change, and after a
  // menu click that dropped the query: put this screen's state into the URL.
  useEffect(() => {
    if (!active) return;
    const next = writeTableState(searchParams, state, names);
    if (next.toString() !== searchParams.toString()) setSearchParams(next, { replace: true });
  }, [active, searchParams, setSearchParams, state, names]);

  const update = useCallback((change: (prev: TableState) => TableState) => setState(change), []);
  return [state, update] as const;
}

import { useCallback, useEffect, useState } from 'react';
import type { PageResult } from '@mes/contracts';
import { requestData } from '../api/http';
import type { Row } from './resource-page-types';

export interface ListResult {
  rows: Row[];
  total: number;
  loading: boolean;
  reload(): void;
}

/** Drops empty `children` arrays so the tree table shows no expander on leaves. */
export function pruneLeaves(rows: Row[]): Row[] {
  return rows.map((row) => {
    const children = row.children;
    if (!Array.isArray(children)) return row;
    if (!children.length) {
      const { children: _drop, ...rest } = row;
      return rest as Row;
    }
    return { ...row, children: pruneLeaves(children as Row[]) };
  });
}

/**
 * Loads one list call; a newer call makes an older answer irrelevant. A page answers
 * `{records, total}`, a tree list (no `current`) answers the forest itself.
 */
export function useResourceList(url: string, params: Record<string, string | number>): ListResult {
  const [data, setData] = useState<{ rows: Row[]; total: number }>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(params);

  useEffect(() => {
    let live = true;
    const query = JSON.parse(key) as Record<string, string | number>;
    const load = async () => {
      setLoading(true);
      try {
        const answer = await requestData<PageResult<Row> | Row[]>(url, { params: query });
        if (!live) return;
        if (Array.isArray(answer)) setData({ rows: pruneLeaves(answer), total: answer.length });
        else setData({ rows: answer?.records ?? [], total: Number(answer?.total ?? 0) });
      } catch {
        // The client toasted the failure; keep the rows shown before.
      } finally {
        if (live) setLoading(false);
      }
    };
    void load();
    return () => {
      live = false;
    };
  }, [url, key, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...data, loading, reload };
}

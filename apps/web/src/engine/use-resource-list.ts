import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { PageResult } from '@mes/contracts';
import { apiQuery, invalidateRoutes, isUnderRoute } from '../api/server-state';
import type { Row } from './resource-page-types';

export interface ListResult {
  rows: Row[];
  total: number;
  loading: boolean;
  /** Reloads every cached read of the resource (this list included): its rows changed, or 刷新. */
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

type ListAnswer = PageResult<Row> | Row[] | null;

const NO_ROWS: { rows: Row[]; total: number } = { rows: [], total: 0 };

/** A page answers `{records, total}`, a tree list (no `current`) answers the forest itself. */
export function listOf(answer: ListAnswer): { rows: Row[]; total: number } {
  if (Array.isArray(answer)) return { rows: pruneLeaves(answer), total: answer.length };
  if (!answer) return NO_ROWS;
  return { rows: answer.records ?? [], total: Number(answer.total ?? 0) };
}

/**
 * One list call of a resource (`api`), cached under its route and parameters. A change of
 * parameters shows the rows already on screen until the new answer comes (and an answer to an
 * older call is never shown over it); a kept-alive tab shown again keeps its rows — and its
 * ticked rows — unless the resource was changed meanwhile or the list is stale.
 */
export function useResourceList(
  api: string,
  url: string,
  params: Record<string, string | number>,
  refreshEvery?: (rows: Row[]) => number | false,
): ListResult {
  const client = useQueryClient();
  const query = useQuery({
    ...apiQuery<ListAnswer>(url, params),
    select: listOf,
    placeholderData: keepPreviousData,
    refetchInterval: refreshEvery ? (current) => refreshEvery(listOf(current.state.data ?? null).rows) : undefined,
  });
  const reload = useCallback(() => {
    void invalidateRoutes(client, api);
    // A screen's list route outside the resource's own routes reloads too.
    if (!isUnderRoute(url, api)) void client.invalidateQueries({ queryKey: [url] });
  }, [client, api, url]);
  const data = query.data ?? NO_ROWS;
  return { rows: data.rows, total: data.total, loading: query.isFetching, reload };
}

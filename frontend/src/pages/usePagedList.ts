// A server-side list read a page at a time: the first page whenever the workspace or the filters
// change, the next on "Load more". Answers to older filters are dropped: the newest wins. While new
// filters are asked, the rows of the old ones stay on screen (marked as loading) so that the filter
// controls above them stay put, focus and half-typed text included; another workspace's rows never do.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../api/client';
import type { ListPage } from '../api/lists';

/** Where the next page starts: null for the first page. */
export type PageStart = { offset: number; next: string | null } | null;
export type FetchPage<T> = (start: PageStart) => Promise<ListPage<T>>;

/** The rows of `more` appended to `rows`, any already there left out (a row that moved between two pages). */
export function appendPage<T extends { id: string | number }>(rows: readonly T[], more: readonly T[]): T[] {
  const seen = new Set(rows.map((r) => r.id));
  return [...rows, ...more.filter((r) => !seen.has(r.id))];
}

/** Whether there is more to load: a cursor says so (runs), else the total does (workflows, by offset). */
export function hasMore(page: ListPage<unknown>, by: 'offset' | 'cursor'): boolean {
  return by === 'cursor' ? page.next !== null : page.total !== null && page.items.length < page.total;
}

/** `scope`: the workspace (null: not known yet, nothing is asked); `filters`: the filters, as text. */
export function usePagedList<T extends { id: string | number }>(scope: string | null, filters: string, by: 'offset' | 'cursor', fetchPage: FetchPage<T>) {
  const key = scope === null ? null : `${scope}|${filters}`;
  const latest = useRef(fetchPage);
  useEffect(() => {
    latest.current = fetchPage;
  });
  const [state, setState] = useState<(ListPage<T> & { key: string; scope: string }) | null>(null);
  const [error, setError] = useState<{ key: string; message: string } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const asked = useRef(0);

  const reload = useCallback(() => {
    if (key === null || scope === null) return;
    const n = ++asked.current;
    latest.current(null).then(
      (page) => {
        if (n !== asked.current) return;
        setState({ ...page, key, scope });
        setError(null);
      },
      (e) => n === asked.current && setError({ key, message: errorText(e) }),
    );
  }, [key, scope]);
  useEffect(reload, [reload]);

  const current = state && state.key === key ? state : null;
  const loadMore = useCallback(() => {
    if (!current || loadingMore) return;
    const n = asked.current; // a reload meanwhile makes this answer stale
    setLoadingMore(true);
    latest
      .current({ offset: current.items.length, next: current.next })
      .then(
        (page) => {
          if (n !== asked.current) return;
          setState((prev) => (prev && prev.key === current.key ? { ...prev, items: appendPage(prev.items, page.items), total: page.total, next: page.next } : prev));
        },
        (e) => n === asked.current && setError({ key: current.key, message: errorText(e) }),
      )
      .finally(() => setLoadingMore(false));
  }, [current, loadingMore]);

  /** Changes the rows shown (a run that changed, live) without asking the server. */
  const update = useCallback(
    (fn: (page: ListPage<T>) => ListPage<T>) => setState((prev) => (prev && prev.key === key ? { ...prev, ...fn(prev) } : prev)),
    [key],
  );

  const stale = !current && state && state.scope === scope ? state : null;
  return {
    /** The rows of these filters (null: not in yet). */
    items: current?.items ?? null,
    /** What to draw: these filters' rows, else (while they load) the last ones of this workspace. */
    rows: current?.items ?? stale?.items ?? null,
    /** The rows drawn are not yet these filters'. */
    loading: !current,
    total: current?.total ?? null,
    more: current ? hasMore(current, by) : false,
    loadingMore,
    loadMore,
    reload,
    update,
    error: error && error.key === key ? error.message : null,
  };
}

// The part the workflows and runs lists share: the list's error, its filter bar, "Loading…", the two empty
// states (nothing matches the filters; nothing at all yet), the table of rows, and "Load more".
import { Fragment, type ReactNode } from 'react';
import { Banner } from '../../components/Banner';
import { LoadMore } from '../LoadMore';

/** What ListTable needs of usePagedList's state. */
export interface ListState<T> {
  /** The rows of the filters in force (null: not in yet). */
  items: T[] | null;
  /** The rows to draw: those, else (while they load) the last ones. */
  rows: T[] | null;
  loading: boolean;
  error: string | null;
  more: boolean;
  loadingMore: boolean;
  loadMore(): void;
}

interface Props<T extends { id: string | number }> {
  list: ListState<T>;
  pageSize: number;
  /** Whether any filter is in force. */
  filtered: boolean;
  onClearFilters(): void;
  /** The filter bar, given how many rows are shown. */
  filterBar(shown: number): ReactNode;
  /** An error of the page's own shows above: no "Loading…" under it. */
  pageError?: boolean;
  /** Nothing matches the filters. */
  noMatch: { testId: string; title: string; text: ReactNode };
  /** Nothing at all yet: an icon, a title and what to do. */
  empty: { icon: string; title: ReactNode; body: ReactNode };
  /** The table's test id. */
  testId: string;
  /** The header cells. */
  head: ReactNode;
  /** A row (or rows) of the table body. */
  row(item: T): ReactNode;
  /** Drawn between the table and "Load more". */
  children?: ReactNode;
}

export function ListTable<T extends { id: string | number }>({ list, pageSize, filtered, onClearFilters, filterBar, pageError, noMatch, empty, testId, head, row, children }: Props<T>) {
  const rows = list.rows;
  return (
    <>
      {list.error && <Banner kind="error">{list.error}</Banner>}
      {rows !== null && (rows.length > 0 || filtered || list.loading) && filterBar(rows.length)}
      {rows === null && !pageError && !list.error && <p className="muted">Loading…</p>}
      {list.items && list.items.length === 0 && filtered && (
        <div className="empty" data-testid={noMatch.testId}>
          <h2>{noMatch.title}</h2>
          <p className="muted">{noMatch.text}</p>
          <button className="btn" onClick={onClearFilters} data-testid="clear-filters-empty">
            Clear filters
          </button>
        </div>
      )}
      {list.items && list.items.length === 0 && !filtered && (
        <div className="empty">
          <div className="empty-icon" aria-hidden>
            {empty.icon}
          </div>
          <h2>{empty.title}</h2>
          {empty.body}
        </div>
      )}
      {rows && rows.length > 0 && (
        <table className="table" data-testid={testId} aria-busy={list.loading} data-state={list.loading ? 'loading' : 'idle'}>
          <thead>
            <tr>{head}</tr>
          </thead>
          <tbody>
            {rows.map((item) => (
              <Fragment key={item.id}>{row(item)}</Fragment>
            ))}
          </tbody>
        </table>
      )}
      {children}
      <LoadMore list={list} pageSize={pageSize} />
    </>
  );
}

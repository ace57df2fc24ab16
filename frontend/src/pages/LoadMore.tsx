/** "Load more" under a list that has another page (usePagedList's state). */
export function LoadMore({ list, pageSize }: { list: { more: boolean; loadingMore: boolean; loadMore(): void }; pageSize: number }) {
  if (!list.more) return null;
  return (
    <div className="row center">
      <button className="btn" onClick={list.loadMore} disabled={list.loadingMore} data-testid="load-more">
        {list.loadingMore ? 'Loading…' : `Load ${pageSize} more`}
      </button>
    </div>
  );
}

// The address's query string as React state, for pages that keep their filters there.
import { useSyncExternalStore } from 'react';
import { navigate } from '../router';

// navigate() announces every change of address with this event (router.ts), Back and Forward with popstate.
const NAVIGATED = 'ld:navigate';

function subscribe(cb: () => void): () => void {
  window.addEventListener(NAVIGATED, cb);
  window.addEventListener('popstate', cb);
  return () => {
    window.removeEventListener(NAVIGATED, cb);
    window.removeEventListener('popstate', cb);
  };
}

export function useLocationSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

/** Puts a new query ('' or '?…') in the address in place: a filter is not a page of its own in the history,
 * so Back leaves the list rather than stepping through every keystroke. */
export function replaceSearch(search: string): void {
  if (search === window.location.search) return;
  void navigate(window.location.pathname + search, { replace: true });
}

// Client-side routing without a dependency: the path is the state.
import { useSyncExternalStore } from 'react';

const EVENT = 'ld:navigate';

export function navigate(path: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(EVENT));
}

function subscribe(cb: () => void): () => void {
  window.addEventListener('popstate', cb);
  window.addEventListener(EVENT, cb);
  return () => {
    window.removeEventListener('popstate', cb);
    window.removeEventListener(EVENT, cb);
  };
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

export type Route =
  | { page: 'workflows' }
  | { page: 'editor'; id: number | null }
  | { page: 'run'; id: string }
  | { page: 'runs' }
  | { page: 'notfound' };

export function match(path: string): Route {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/' || p === '/workflows') return { page: 'workflows' };
  if (p === '/workflows/new') return { page: 'editor', id: null };
  let m = /^\/workflows\/(\d+)$/.exec(p);
  if (m) return { page: 'editor', id: Number(m[1]) };
  if (p === '/runs') return { page: 'runs' };
  m = /^\/runs\/([0-9A-Za-z-]{1,64})$/.exec(p);
  if (m) return { page: 'run', id: m[1] };
  return { page: 'notfound' };
}

/** A link that navigates in the page (and still opens in a new tab). */
export function onLinkClick(e: { preventDefault(): void; metaKey: boolean; ctrlKey: boolean; button: number }, path: string): void {
  if (e.metaKey || e.ctrlKey || e.button !== 0) return;
  e.preventDefault();
  navigate(path);
}

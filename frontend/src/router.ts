// Client-side routing without a dependency: the path is the state.
// A page with unsaved work sets a leave guard: in-app navigation (links,
// navigate(), the browser's Back and Forward) then asks before leaving.
import { useSyncExternalStore } from 'react';

const EVENT = 'ld:navigate';

/** Returns a question to ask before leaving the page, or null to leave freely. */
export type LeaveGuard = () => string | null;
/** Asks the user; resolves true to leave. */
export type Confirmer = (question: string) => Promise<boolean>;

let guard: LeaveGuard | null = null;
/** Called when the user answered the guard's question with "leave" (their edits are discarded). */
let onDiscard: (() => void) | null = null;
let confirmer: Confirmer = (q) => Promise.resolve(typeof window.confirm === 'function' ? window.confirm(q) : true);
let asking = false;
/** The path the app shows: where Back is undone to when the user stays. */
let shown: string | null = null;

function here(): string {
  return window.location.pathname + window.location.search;
}

/** Sets the page's leave guard; returns a function that removes it. */
export function setLeaveGuard(g: LeaveGuard, discard?: () => void): () => void {
  guard = g;
  onDiscard = discard ?? null;
  return () => {
    if (guard === g) {
      guard = null;
      onDiscard = null;
    }
  };
}

/** Replaces how the question is asked (the app shows its own dialog); returns a function that restores window.confirm. */
export function setConfirmer(c: Confirmer): () => void {
  const prev = confirmer;
  confirmer = c;
  return () => {
    if (confirmer === c) confirmer = prev;
  };
}

function go(path: string, replace: boolean): void {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  shown = here();
  window.dispatchEvent(new Event(EVENT));
}

/** Whether leaving is allowed: asks when the guard has a question. */
async function mayLeave(): Promise<boolean> {
  const question = guard?.();
  if (!question) return true;
  if (asking) return false;
  asking = true;
  try {
    const leave = await confirmer(question);
    if (leave) onDiscard?.();
    return leave;
  } finally {
    asking = false;
  }
}

/**
 * Goes to `path` in the page. With a leave guard set, asks first; resolves
 * true when the app navigated, false when the user chose to stay.
 */
export function navigate(path: string, opts: { replace?: boolean; force?: boolean } = {}): Promise<boolean> {
  const replace = !!opts.replace;
  if (opts.force || !guard?.()) {
    go(path, replace);
    return Promise.resolve(true);
  }
  return mayLeave().then((ok) => {
    if (ok) go(path, replace);
    return ok;
  });
}

function onPopState(): void {
  const target = here();
  if (shown !== null && target !== shown && guard?.()) {
    // Undo the Back/Forward at once (nothing re-renders), then ask.
    const stay = shown;
    window.history.pushState(null, '', stay);
    void mayLeave().then((ok) => {
      if (ok) go(target, false);
    });
    return;
  }
  shown = target;
  window.dispatchEvent(new Event(EVENT));
}

let listening = false;
function listen(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  shown = here();
  window.addEventListener('popstate', onPopState);
}

function subscribe(cb: () => void): () => void {
  listen();
  window.addEventListener(EVENT, cb);
  return () => window.removeEventListener(EVENT, cb);
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

export type Route =
  | { page: 'workflows' }
  | { page: 'editor'; id: number | null }
  /** Two versions of a workflow side by side (which ones: ?a=&b= in the address). */
  | { page: 'compare'; id: number }
  /** A workflow's datasets and experiments. */
  | { page: 'evaluations'; id: number }
  | { page: 'run'; id: string }
  /** Two runs of one workflow side by side. */
  | { page: 'runCompare'; a: string; b: string }
  | { page: 'runs' }
  /** A workspace's settings (id null: the current workspace's). */
  | { page: 'workspace'; id: number | null }
  | { page: 'notfound' };

export function match(path: string): Route {
  const p = path.replace(/\/+$/, '') || '/';
  if (p === '/' || p === '/workflows') return { page: 'workflows' };
  if (p === '/workflows/new') return { page: 'editor', id: null };
  let m = /^\/workflows\/(\d+)$/.exec(p);
  if (m) return { page: 'editor', id: Number(m[1]) };
  m = /^\/workflows\/(\d+)\/compare$/.exec(p);
  if (m) return { page: 'compare', id: Number(m[1]) };
  m = /^\/workflows\/(\d+)\/evaluations$/.exec(p);
  if (m) return { page: 'evaluations', id: Number(m[1]) };
  if (p === '/runs') return { page: 'runs' };
  m = /^\/runs\/([0-9A-Za-z-]{1,64})$/.exec(p);
  if (m) return { page: 'run', id: m[1] };
  m = /^\/runs\/([0-9A-Za-z-]{1,64})\/compare\/([0-9A-Za-z-]{1,64})$/.exec(p);
  if (m) return { page: 'runCompare', a: m[1], b: m[2] };
  if (p === '/workspaces') return { page: 'workspace', id: null };
  m = /^\/workspaces\/(\d{1,15})$/.exec(p);
  if (m) return { page: 'workspace', id: Number(m[1]) };
  return { page: 'notfound' };
}

/** A link that navigates in the page (and still opens in a new tab). */
export function onLinkClick(e: { preventDefault(): void; metaKey: boolean; ctrlKey: boolean; button: number }, path: string): void {
  if (e.metaKey || e.ctrlKey || e.button !== 0) return;
  e.preventDefault();
  void navigate(path);
}

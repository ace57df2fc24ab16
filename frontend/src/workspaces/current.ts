// The workspace the app is in: the user's workspaces (GET /workspaces), the current one, and who the
// user is (GET /me). The current workspace is kept in localStorage and, when the address names one
// (`?workspace=ID`, where an accepted invitation lands), taken from there first.
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { api, errorText } from '../api/client';
import type { WorkspaceSummary } from '../api/types';
import { navigate } from '../router';

const KEY = 'ld:workspace';
export const WORKSPACE_PARAM = 'workspace';

/** The workspace id a query string names (`?workspace=12`), or null. */
export function workspaceParam(search: string): number | null {
  const raw = new URLSearchParams(search).get(WORKSPACE_PARAM);
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}

/** The personal workspace first, then the teams by name. */
export function sortWorkspaces(list: readonly WorkspaceSummary[]): WorkspaceSummary[] {
  return [...list].sort((a, b) => (a.personal === b.personal ? a.name.localeCompare(b.name) || a.id - b.id : a.personal ? -1 : 1));
}

/** The first wanted id the user is in; else their personal workspace; else the first one (null: none). */
export function pickCurrent(list: readonly WorkspaceSummary[], ...wanted: (number | null | undefined)[]): number | null {
  for (const id of wanted) if (id && list.some((w) => w.id === id)) return id;
  return (list.find((w) => w.personal) ?? list[0])?.id ?? null;
}

function stored(): number | null {
  try {
    const n = Number(window.localStorage.getItem(KEY));
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function remember(id: number): void {
  try {
    window.localStorage.setItem(KEY, String(id));
  } catch {
    // storage unavailable: the choice lasts as long as the page
  }
}

function fromAddress(): number | null {
  return typeof window === 'undefined' || !window.location ? null : workspaceParam(window.location.search ?? '');
}

/** Keeps `?workspace=` in the address in step with the choice, where the address carries it. */
function followInAddress(id: number): void {
  if (typeof window === 'undefined' || !window.location) return;
  const params = new URLSearchParams(window.location.search);
  if (!params.has(WORKSPACE_PARAM) || params.get(WORKSPACE_PARAM) === String(id)) return;
  params.set(WORKSPACE_PARAM, String(id));
  void navigate(`${window.location.pathname}?${params.toString()}`, { replace: true, force: true });
}

export interface WorkspacesState {
  list: WorkspaceSummary[] | null;
  /** idle: not asked yet; failed: the list could not be had (an older server): nothing is scoped. */
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: string | null;
  /** The current workspace's id (before the list is in: the one asked for). */
  current: number | null;
  /** The signed-in user's name (null until known). */
  username: string | null;
  /** (Re)loads the list and the user; keeps the current workspace when the user is still in it. */
  load(): Promise<void>;
  select(id: number): void;
  /** A workspace just made (or renamed): into the list, and current when `select`. */
  upsert(w: WorkspaceSummary, select?: boolean): void;
}

export function createWorkspacesStore(source: Pick<typeof api, 'workspaces' | 'me'> = api) {
  return createStore<WorkspacesState>()((set, get) => ({
    list: null,
    status: 'idle',
    error: null,
    current: typeof window === 'undefined' ? null : (fromAddress() ?? stored()),
    username: null,

    async load() {
      if (get().status === 'idle') set({ status: 'loading' });
      source.me().then(
        (me) => set({ username: me.username }),
        () => undefined,
      );
      try {
        const list = sortWorkspaces(await source.workspaces());
        const current = pickCurrent(list, fromAddress(), get().current, stored());
        set({ list, status: 'ready', error: null, current });
        if (current !== null) remember(current);
      } catch (e) {
        set({ status: get().list ? 'ready' : 'failed', error: errorText(e) });
      }
    },

    select(id) {
      if (get().list && !get().list?.some((w) => w.id === id)) return;
      set({ current: id });
      remember(id);
      followInAddress(id);
    },

    upsert(w, select = false) {
      const list = get().list ?? [];
      const next = sortWorkspaces([...list.filter((x) => x.id !== w.id), w]);
      set({ list: next, status: 'ready' });
      if (select) get().select(w.id);
    },
  }));
}

export const workspacesStore = createWorkspacesStore();

export function useWorkspaces<T>(selector: (s: WorkspacesState) => T): T {
  return useStore(workspacesStore, selector);
}

/** The current workspace (null until the list is in, or without workspaces). */
export function useCurrentWorkspace(): WorkspaceSummary | null {
  return useWorkspaces((s) => s.list?.find((w) => w.id === s.current) ?? null);
}

/** What a list is scoped to: `ready` once known, `id` null for "every workspace" (a server without them). */
export function useWorkspaceScope(): { ready: boolean; id: number | null } {
  const status = useWorkspaces((s) => s.status);
  const current = useWorkspaces((s) => s.current);
  const ready = status === 'ready' || status === 'failed';
  return { ready, id: status === 'ready' ? current : null };
}

/** A workspace of the user's by id (null: not one of theirs, or not loaded yet). */
export function useWorkspace(id: number | null | undefined): WorkspaceSummary | null {
  return useWorkspaces((s) => (id ? (s.list?.find((w) => w.id === id) ?? null) : null));
}

/** Where new workflows go: the current workspace (undefined: the server's default, the personal one). */
export function currentWorkspaceId(): number | undefined {
  const s = workspacesStore.getState();
  return s.status === 'failed' ? undefined : (s.current ?? undefined);
}

/** Makes the workspace current when it is one of the user's (opening a workflow or a run that lives there). */
export function followWorkspace(id: number | null | undefined): void {
  const s = workspacesStore.getState();
  if (!id || s.current === id) return;
  if (!s.list) workspacesStore.setState({ current: id }); // checked against the list once it is in
  else if (s.list.some((w) => w.id === id)) s.select(id);
}

/** Reloads the list once it has been loaded (after a rename, a new team, a role change ...). */
export function refreshWorkspaces(): void {
  if (workspacesStore.getState().status !== 'idle') void workspacesStore.getState().load();
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceSummary } from '../api/types';
import { createWorkspacesStore, pickCurrent, sortWorkspaces, workspaceParam } from './current';

const LIST: WorkspaceSummary[] = [
  { id: 7, name: 'Zeta team', role: 'viewer', personal: false },
  { id: 3, name: 'Acme', role: 'editor', personal: false },
  { id: 1, name: 'me (personal)', role: 'owner', personal: true },
];

function fakeWindow(search = '', stored: string | null = null) {
  const storage = new Map<string, string>(stored ? [['ld:workspace', stored]] : []);
  const location = { pathname: '/', search };
  const replaced: string[] = [];
  vi.stubGlobal('window', {
    location,
    localStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    },
    history: {
      replaceState: (_: unknown, __: string, url: string) => {
        replaced.push(url);
        const [path, query = ''] = url.split('?');
        location.pathname = path;
        location.search = query ? `?${query}` : '';
      },
      pushState: () => undefined,
    },
    dispatchEvent: () => true,
    addEventListener: () => undefined,
  });
  return { storage, replaced };
}

const source = (list: WorkspaceSummary[] = LIST) => ({
  workspaces: vi.fn(async () => list),
  me: vi.fn(async () => ({ username: 'me' })),
});

describe('the current workspace', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads ?workspace= from the address', () => {
    expect(workspaceParam('?workspace=12')).toBe(12);
    expect(workspaceParam('?version=2&workspace=5')).toBe(5);
    expect(workspaceParam('?workspace=abc')).toBeNull();
    expect(workspaceParam('?workspace=0')).toBeNull();
    expect(workspaceParam('')).toBeNull();
  });

  it('lists the personal workspace first, then the teams by name', () => {
    expect(sortWorkspaces(LIST).map((w) => w.id)).toEqual([1, 3, 7]);
  });

  it('picks the first wanted workspace the user is in, else the personal one', () => {
    expect(pickCurrent(LIST, 99, 7)).toBe(7);
    expect(pickCurrent(LIST, null, undefined)).toBe(1);
    expect(pickCurrent([LIST[0]], null)).toBe(7);
    expect(pickCurrent([], 3)).toBeNull();
  });

  describe('the store', () => {
    it('honours ?workspace= on load (where an invitation lands) and remembers it', async () => {
      const { storage } = fakeWindow('?workspace=7', '3');
      const store = createWorkspacesStore(source());
      expect(store.getState().current).toBe(7);
      await store.getState().load();
      expect(store.getState()).toMatchObject({ status: 'ready', current: 7 });
      expect(store.getState().list?.map((w) => w.id)).toEqual([1, 3, 7]);
      expect(storage.get('ld:workspace')).toBe('7');
    });

    it('falls back from a workspace the user left to the personal one', async () => {
      fakeWindow('', '42');
      const store = createWorkspacesStore(source());
      await store.getState().load();
      expect(store.getState().current).toBe(1);
    });

    it('keeps the choice in localStorage, and in the address when it carries one', async () => {
      const { storage, replaced } = fakeWindow('?workspace=3');
      const store = createWorkspacesStore(source());
      await store.getState().load();
      store.getState().select(7);
      expect(store.getState().current).toBe(7);
      expect(storage.get('ld:workspace')).toBe('7');
      expect(replaced).toEqual(['/?workspace=7']);
      store.getState().select(999); // not one of the user's: ignored
      expect(store.getState().current).toBe(7);
    });

    it('scopes nothing on a server without workspaces', async () => {
      fakeWindow();
      const failing = { workspaces: vi.fn(async () => Promise.reject(new Error('404'))), me: vi.fn(async () => ({ username: 'me' })) };
      const store = createWorkspacesStore(failing);
      await store.getState().load();
      expect(store.getState().status).toBe('failed');
    });

    it('adds a new team and makes it current', async () => {
      fakeWindow();
      const store = createWorkspacesStore(source());
      await store.getState().load();
      store.getState().upsert({ id: 9, name: 'Beta', role: 'owner', personal: false }, true);
      expect(store.getState().list?.map((w) => w.id)).toEqual([1, 3, 9, 7]);
      expect(store.getState().current).toBe(9);
    });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../api/types';
import { EMPTY_POLICIES } from '../run/policies';
import { DEFAULT_COORDINATOR, recalledRunSettings, rememberRunSettings, settingsFromRun, type RunSettings } from './runSettings';

const g = globalThis as unknown as { window?: { localStorage: Storage } };

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, v),
  };
}

afterEach(() => {
  delete g.window;
});

const typed: RunSettings = { provider: 'simulated', model: '', script: 'replies: {}', budgets: { max_tokens: '', max_cost_usd: '', max_duration_s: '', max_steps: '' }, policies: EMPTY_POLICIES };

describe('the run dialog remembers the coordinator', () => {
  it('narrates by default, and keeps what was chosen', () => {
    expect(DEFAULT_COORDINATOR).toBe('narrate');
    g.window = { localStorage: memoryStorage() };
    rememberRunSettings(7, { ...typed, coordinator: 'summary-only', sharedMemory: true });
    expect(recalledRunSettings(7)).toMatchObject({ coordinator: 'summary-only', sharedMemory: true });
  });

  it('drops a mode it does not know, and settings kept before the choice existed have none', () => {
    g.window = { localStorage: memoryStorage() };
    g.window.localStorage.setItem('ld:run-settings:8', JSON.stringify({ ...typed, coordinator: 'loud' }));
    g.window.localStorage.setItem('ld:run-settings:9', JSON.stringify(typed));
    expect(recalledRunSettings(8)?.coordinator).toBeUndefined();
    expect(recalledRunSettings(9)).toMatchObject({ coordinator: undefined, sharedMemory: false });
  });

  it('starts from a run with its coordinator and shared memory', () => {
    const run = { provider: 'simulated', model: '', budgets: {}, policies: null, script: null, coordinator: 'off', shared_memory: true } as unknown as Run;
    expect(settingsFromRun(run)).toMatchObject({ coordinator: 'off', sharedMemory: true });
    expect(settingsFromRun({ ...run, coordinator: 'strange' })).toMatchObject({ coordinator: 'narrate' });
  });
});

describe('the run dialog remembers permissions and the reasoning level', () => {
  it('keeps what was chosen in this browser', () => {
    g.window = { localStorage: memoryStorage() };
    rememberRunSettings(10, { ...typed, permissions: { mode: 'strict', allow: ['read'], deny: ['bash'] }, thinking: 'high' });
    expect(recalledRunSettings(10)).toMatchObject({ permissions: { mode: 'strict', allow: ['read'], deny: ['bash'] }, thinking: 'high' });
  });

  it('falls back to the default for what it does not know', () => {
    g.window = { localStorage: memoryStorage() };
    g.window.localStorage.setItem('ld:run-settings:11', JSON.stringify({ ...typed, permissions: { mode: 'wild', allow: 'read' }, thinking: 'max' }));
    expect(recalledRunSettings(11)).toMatchObject({ permissions: { mode: 'ask', allow: [], deny: [] }, thinking: null });
    g.window.localStorage.setItem('ld:run-settings:12', JSON.stringify(typed));
    expect(recalledRunSettings(12)).toMatchObject({ permissions: { mode: 'ask', allow: [], deny: [] }, thinking: null });
  });

  it('starts from a run with its permissions and level', () => {
    const run = { provider: 'openai', model: '', budgets: {}, policies: null, script: null, coordinator: 'narrate', permissions: { sandbox: true, deny: ['write'] }, thinking: 'low' } as unknown as Run;
    expect(settingsFromRun(run)).toMatchObject({ permissions: { mode: 'sandbox', allow: [], deny: ['write'] }, thinking: 'low' });
    expect(settingsFromRun({ ...run, permissions: {}, thinking: null })).toMatchObject({ permissions: { mode: 'ask' }, thinking: null });
  });
});

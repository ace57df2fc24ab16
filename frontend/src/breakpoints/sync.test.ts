import { describe, expect, it } from 'vitest';
import type { ValidateResult } from '../api/types';
import { createEditorStore, type SyncApi } from '../store/editorStore';
import type { Breakpoint } from './rules';
import { loadBreakpoints, saveBreakpoints, toggleStepBreakpoint, type BreakpointsApi } from './sync';

/** A server that judges everything valid and renders nothing of interest. */
const sync: SyncApi = {
  validate: async (body) =>
    ({ valid: true, runnable: true, errors: [], warnings: [], document: 'document' in body ? body.document : null, yaml: null, canonical: null }) as ValidateResult,
  render: async () => ({ text: 'name: wf\n' }),
};

function editor() {
  const store = createEditorStore(sync);
  store.getState().load({ workflowId: 7, version: 1, doc: { name: 'wf', steps: [{ id: 'a' }, { id: 'b' }] }, source: 'name: wf\n', layout: null });
  return store;
}

/** The breakpoints route: answers each PUT when the test lets it, in any order; stores what it last answered. */
function server(initial: Breakpoint[] = []) {
  let held: Breakpoint[] = initial;
  const waiting: { list: Breakpoint[]; answer: () => void; refuse: (message: string) => void }[] = [];
  const puts: string[][] = [];
  const api: BreakpointsApi = {
    breakpoints: async () => ({ breakpoints: held }),
    setBreakpoints: (_id, list) =>
      new Promise((resolve, reject) => {
        puts.push((list as Breakpoint[]).map((b) => b.id));
        waiting.push({
          list: list as Breakpoint[],
          answer: () => {
            held = list as Breakpoint[];
            resolve({ breakpoints: held });
          },
          refuse: (message) => reject(new Error(message)),
        });
      }),
  };
  return { api, waiting, puts, held: () => held };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the workflow’s breakpoints in the editor', () => {
  it('shows a margin click at once, and the server’s answer once it is kept', async () => {
    const store = editor();
    const fake = server();
    await loadBreakpoints(store, fake.api, 7);
    expect(store.getState().breakpoints).toEqual([]);
    const saved = toggleStepBreakpoint(store, fake.api, 'a', 'step');
    expect(store.getState().breakpoints).toEqual([{ id: 'at-a', kind: 'step', step: 'a' }]);
    expect(store.getState().breakpointsSaving).toBe(true);
    await tick();
    fake.waiting[0].answer();
    expect(await saved).toBe(true);
    expect(store.getState().breakpointsSaving).toBe(false);
    expect(fake.held()).toEqual([{ id: 'at-a', kind: 'step', step: 'a' }]);
  });

  it('sends two quick clicks one after the other, so the first answer never undoes the second', async () => {
    const store = editor();
    const fake = server();
    await loadBreakpoints(store, fake.api, 7);
    const first = toggleStepBreakpoint(store, fake.api, 'a', 'step');
    const second = toggleStepBreakpoint(store, fake.api, 'b', 'step');
    await tick();
    expect(fake.puts).toEqual([['at-a']]); // the second waits for the first
    fake.waiting[0].answer();
    await first;
    expect(store.getState().breakpoints?.map((b) => b.id)).toEqual(['at-a', 'at-b']); // not the first's answer alone
    await tick();
    fake.waiting[1].answer();
    await second;
    expect(fake.puts).toEqual([['at-a'], ['at-a', 'at-b']]);
    expect(store.getState().breakpoints?.map((b) => b.id)).toEqual(['at-a', 'at-b']);
    // A second click on the same margin takes it away.
    const third = toggleStepBreakpoint(store, fake.api, 'a', 'step');
    await tick();
    fake.waiting[2].answer();
    await third;
    expect(fake.held().map((b) => b.id)).toEqual(['at-b']);
  });

  it('says a refusal and brings back what the server holds', async () => {
    const store = editor();
    const fake = server([{ id: 'at-b', kind: 'step', step: 'b' }]);
    await loadBreakpoints(store, fake.api, 7);
    const saved = saveBreakpoints(store, fake.api, []);
    expect(store.getState().breakpoints).toEqual([]);
    await tick();
    fake.waiting[0].refuse('you need the editor role');
    expect(await saved).toBe(false);
    expect(store.getState().notice?.text).toContain('you need the editor role');
    expect(store.getState().breakpoints).toEqual([{ id: 'at-b', kind: 'step', step: 'b' }]);
  });
});

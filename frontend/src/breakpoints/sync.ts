// The workflow's breakpoints between the editor's store and the server: loaded when the editor holds a saved
// workflow, and saved through the one route the inspector's toggle and the canvas's margin dots both use
// (PUT /workflows/{id}/breakpoints, which replaces them all). A change shows at once; the saves go one after
// another, so an earlier answer never undoes a later click; the server's answer to the last one is what stays.
import type { EditorStore } from '../store/editorStore';
import type { NodeKind } from '../graph/mapping';
import { breakpointFor, stepBreakpoint, stepBreakpointId, withBreakpoint, type Breakpoint } from './rules';

/** The calls this module makes (the API client, or a fake in tests). */
export interface BreakpointsApi {
  breakpoints(workflowId: number): Promise<{ breakpoints: unknown[] }>;
  setBreakpoints(workflowId: number, breakpoints: unknown[]): Promise<{ breakpoints: unknown[] }>;
}

const queues = new WeakMap<EditorStore, { last: Promise<unknown>; serial: number }>();

/** Puts the workflow's breakpoints in the store (none when it cannot be read). */
export async function loadBreakpoints(store: EditorStore, api: BreakpointsApi, workflowId: number): Promise<void> {
  let list: Breakpoint[] = [];
  try {
    list = (await api.breakpoints(workflowId)).breakpoints as Breakpoint[];
  } catch {
    // Nothing to show: the canvas draws no dot, and a toggle's save says what is wrong.
  }
  if (store.getState().workflowId === workflowId) store.getState().showBreakpoints({ breakpoints: list });
}

/**
 * Saves `next` as all of the workflow's breakpoints; resolves true once the server kept it. A refusal is said
 * (the editor's notice bar) and what the server holds comes back.
 */
export function saveBreakpoints(store: EditorStore, api: BreakpointsApi, next: Breakpoint[]): Promise<boolean> {
  const workflowId = store.getState().workflowId;
  if (workflowId === null) return Promise.resolve(false);
  const queue = queues.get(store) ?? { last: Promise.resolve(), serial: 0 };
  const serial = queue.serial + 1;
  store.getState().showBreakpoints({ breakpoints: next, breakpointsSaving: true });
  const done = queue.last.then(async () => {
    const ours = () => store.getState().workflowId === workflowId;
    try {
      const answer = await api.setBreakpoints(workflowId, next);
      if (ours() && queues.get(store)?.serial === serial) {
        store.getState().showBreakpoints({ breakpoints: answer.breakpoints as Breakpoint[], breakpointsSaving: false });
      }
      return true;
    } catch (e) {
      if (ours()) {
        store.getState().notify({ kind: 'error', text: `The breakpoint was not saved: ${e instanceof Error ? e.message : String(e)}` });
        if (queues.get(store)?.serial === serial) store.getState().showBreakpoints({ breakpointsSaving: false });
        await loadBreakpoints(store, api, workflowId);
      }
      return false;
    }
  });
  queues.set(store, { last: done, serial });
  return done;
}

/** A step's margin dot clicked: its breakpoint (the inspector toggle's) set before it, or taken away. */
export function toggleStepBreakpoint(store: EditorStore, api: BreakpointsApi, stepId: string, kind: NodeKind): Promise<boolean> {
  const list = store.getState().breakpoints ?? [];
  const set = stepBreakpoint(list, stepId);
  return saveBreakpoints(store, api, withBreakpoint(list, stepBreakpointId(stepId), set ? null : breakpointFor(stepId, kind, null)));
}

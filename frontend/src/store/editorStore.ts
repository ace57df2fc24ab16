// One store per editor (and per run view), made of slices: document,
// validation/sync, selection, history, run and breakpoints, each in its own module.
// Passed by context (see context.tsx).
import { createStore } from 'zustand/vanilla';
import { createBreakpointsSlice } from './breakpointsSlice';
import { createDocumentSlice } from './documentSlice';
import { createHistorySlice } from './historySlice';
import { createRunSlice } from './runSlice';
import { createSelectionSlice } from './selectionSlice';
import { createSyncEngine, createValidationSlice } from './validationSlice';
import type { EditorState, EditorStore, SyncApi } from './types';

export { blankDocument } from './documentSlice';
export { withLines } from './diagnostics';
export { DOC_DEBOUNCE_MS, TEXT_DEBOUNCE_MS } from './validationSlice';
export type * from './types';

export function createEditorStore(api: SyncApi): EditorStore {
  return createStore<EditorState>()((set, get) => {
    const sync = createSyncEngine(api, set, get);
    return {
      ...createDocumentSlice(set, get, sync),
      ...createValidationSlice(get, sync),
      ...createSelectionSlice(set, get),
      ...createHistorySlice(set, get, sync),
      ...createRunSlice(set, get),
      ...createBreakpointsSlice(set),
    };
  });
}

export function isDirty(
  s: Pick<EditorState, 'revision' | 'savedRevision' | 'layoutRevision' | 'savedLayoutRevision' | 'workflowId'>,
): boolean {
  return s.revision !== s.savedRevision || s.layoutRevision !== s.savedLayoutRevision || s.workflowId === null;
}

// The workflow's breakpoints, as the editor shows them: one list for the canvas's margin dots, the inspector's
// toggle and the run dialog, so they agree at once. Loaded and saved by breakpoints/sync.ts (the server is the
// judge); null where nobody loaded them (a run view, an include, a new workflow): nothing shows there.
import type { BreakpointsSlice, SetEditor } from './types';

export function createBreakpointsSlice(set: SetEditor): BreakpointsSlice {
  return {
    breakpoints: null,
    breakpointsSaving: false,

    showBreakpoints(patch) {
      set(patch);
    },
  };
}

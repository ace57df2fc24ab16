// What is chosen (a node, an edge, an agent, a tab) and what to reveal.
import type { GetEditor, SelectionSlice, SetEditor } from './types';

export function createSelectionSlice(set: SetEditor, get: GetEditor): SelectionSlice {
  return {
    selection: null,
    focusField: null,
    focusLine: null,
    focusNonce: 0,
    fitNonce: 0,

    select(selection, field = null, line = null) {
      // Choosing a node (or the canvas) replaces a chosen loop iteration in the run view.
      set({ selection, focusField: field, focusLine: line, focusNonce: get().focusNonce + 1, iterationFocus: null });
    },

    requestFit() {
      set({ fitNonce: get().fitNonce + 1 });
    },
  };
}

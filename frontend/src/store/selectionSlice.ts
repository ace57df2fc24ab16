// What is chosen (a node or several, an edge, an agent, a tab), what to
// reveal, and the notice of the last edit that had something to say.
import type { GetEditor, Selection, SelectionSlice, SetEditor } from './types';

/** The step keys a single selection stands for. */
export function keysOf(selection: Selection | null): string[] {
  return selection?.kind === 'step' ? [selection.key] : [];
}

export function createSelectionSlice(set: SetEditor, get: GetEditor): SelectionSlice {
  return {
    selection: null,
    selectedKeys: [],
    notice: null,
    focusField: null,
    focusLine: null,
    focusNonce: 0,
    fitNonce: 0,
    revealKeys: [],
    revealNonce: 0,
    drill: [],

    select(selection, field = null, line = null) {
      // Choosing a node (or the canvas) replaces a chosen loop iteration in the run view.
      set({ selection, selectedKeys: keysOf(selection), focusField: field, focusLine: line, focusNonce: get().focusNonce + 1, iterationFocus: null });
    },

    selectSteps(keys, primary) {
      const unique = [...new Set(keys)];
      const main = primary !== undefined && primary !== null && unique.includes(primary) ? primary : unique[unique.length - 1];
      set({
        selectedKeys: unique,
        selection: main ? { kind: 'step', key: main } : { kind: 'workflow' },
        focusField: null,
        focusLine: null,
        focusNonce: get().focusNonce + 1,
        iterationFocus: null,
      });
    },

    toggleStep(key) {
      const { selectedKeys, selection } = get();
      const current = selectedKeys.length > 0 ? selectedKeys : keysOf(selection);
      if (current.includes(key)) {
        const rest = current.filter((k) => k !== key);
        const primary = selection?.kind === 'step' && selection.key !== key ? selection.key : null;
        get().selectSteps(rest, primary);
      } else {
        get().selectSteps([...current, key], key);
      }
    },

    notify(notice) {
      set({ notice });
    },

    requestFit() {
      set({ fitNonce: get().fitNonce + 1 });
    },

    reveal(keys) {
      set({ revealKeys: [...keys], revealNonce: get().revealNonce + 1 });
    },

    openInclude(level) {
      set({ drill: [...get().drill, level] });
    },

    closeIncludes(depth) {
      set({ drill: get().drill.slice(0, Math.max(0, depth)) });
    },
  };
}

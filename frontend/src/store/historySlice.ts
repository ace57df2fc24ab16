// Undo and redo: snapshots of the document, its layout and its text.
import type { SyncEngine } from './validationSlice';
import type { GetEditor, HistorySlice, SetEditor, Snapshot } from './types';

const HISTORY_LIMIT = 200;
/** Edits of one field closer together than this make one undo step. */
const COALESCE_MS = 1200;

function snapshot(get: GetEditor): Snapshot {
  const { doc, layout, source } = get();
  return { doc, layout, source };
}

/** Called before an edit: keeps the state it replaces, unless it continues the last edit of the same field. */
export function recordHistory(set: SetEditor, get: GetEditor, coalesce: string | null): void {
  const now = Date.now();
  const { past, lastCoalesce, lastEditAt } = get();
  if (coalesce && coalesce === lastCoalesce && now - lastEditAt < COALESCE_MS) {
    set({ lastEditAt: now, future: [] });
    return;
  }
  const nextPast = [...past, snapshot(get)];
  if (nextPast.length > HISTORY_LIMIT) nextPast.shift();
  set({ past: nextPast, future: [], lastCoalesce: coalesce, lastEditAt: now });
}

export function createHistorySlice(set: SetEditor, get: GetEditor, sync: SyncEngine): HistorySlice {
  const restore = (snap: Snapshot) => {
    set({
      doc: snap.doc,
      layout: snap.layout,
      source: snap.source,
      sourceNonce: get().sourceNonce + 1,
      revision: get().revision + 1,
      layoutRevision: get().layoutRevision + 1,
      lastCoalesce: null,
    });
    // The text is known; validate it (comments and lines included).
    sync.afterTextEdit();
  };

  return {
    past: [],
    future: [],
    lastCoalesce: null,
    lastEditAt: 0,

    undo() {
      const { past, future } = get();
      const prev = past[past.length - 1];
      if (!prev || get().readOnly) return;
      set({ past: past.slice(0, -1), future: [snapshot(get), ...future] });
      restore(prev);
    },

    redo() {
      const { past, future } = get();
      const next = future[0];
      if (!next || get().readOnly) return;
      set({ past: [...past, snapshot(get)], future: future.slice(1) });
      restore(next);
    },
  };
}

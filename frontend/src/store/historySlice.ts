// Undo and redo: snapshots of the document, its layout and its text.
import { allKeys } from '../doc/keys';
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

/** Forgets selected steps the restored document does not have (an undone paste). */
function pruneSelection(set: SetEditor, get: GetEditor): void {
  const { doc, selectedKeys, selection } = get();
  const known = new Set(allKeys(doc));
  const kept = selectedKeys.filter((k) => known.has(k));
  const stale = selection?.kind === 'step' && !known.has(selection.key);
  if (kept.length !== selectedKeys.length || stale) {
    set({ selectedKeys: kept, selection: stale ? (kept.length ? { kind: 'step', key: kept[kept.length - 1] } : null) : selection });
  }
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
    pruneSelection(set, get);
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

    seedUndo(snap) {
      if (get().readOnly) return;
      set({ past: [snap, ...get().past].slice(-HISTORY_LIMIT) });
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

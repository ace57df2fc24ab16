// Unsaved edits survive a crash, a closed tab or a reload: while the document differs from its saved
// version, the editor keeps a copy in localStorage; saving (or choosing to discard) removes it.
import type { Layout, WorkflowDoc } from '../doc/types';
import { isDirty, type EditorStore } from './editorStore';

const PREFIX = 'ld:draft:';
const WRITE_DELAY_MS = 200;

export interface Draft {
  source: string;
  doc: WorkflowDoc;
  layout: Layout;
  /** The saved version these edits were made on (null for a workflow never saved). */
  basedOn: number | null;
  savedAt: number;
}

function key(workflowId: number | null): string {
  return PREFIX + (workflowId === null ? 'new' : String(workflowId));
}

export function readDraft(workflowId: number | null): Draft | null {
  try {
    const raw = window.localStorage.getItem(key(workflowId));
    if (!raw) return null;
    const d = JSON.parse(raw) as Draft;
    return d && typeof d === 'object' && typeof d.source === 'string' && d.doc && typeof d.doc === 'object' ? d : null;
  } catch {
    return null;
  }
}

export function clearDraft(workflowId: number | null): void {
  try {
    window.localStorage.removeItem(key(workflowId));
  } catch {
    // storage unavailable: nothing was kept either
  }
}

function writeDraft(store: EditorStore): void {
  const s = store.getState();
  if (s.readOnly) return;
  if (!isDirty(s) || s.revision === 0) {
    // Saved (or never touched): nothing to keep. A workflow saved for the first time drops its 'new' draft too.
    clearDraft(s.workflowId);
    if (s.workflowId !== null) clearDraft(null);
    return;
  }
  const draft: Draft = { source: s.source, doc: s.doc, layout: s.layout, basedOn: s.savedVersion, savedAt: Date.now() };
  try {
    window.localStorage.setItem(key(s.workflowId), JSON.stringify(draft));
  } catch {
    // quota or privacy mode: the leave guard still warns before edits are lost
  }
}

export interface DraftKeeper {
  /** Stops keeping; what is unsaved is written once more (a crash unmounts the editor too). */
  stop(): void;
  /** The user chose to throw the edits away: forget them now and for good. */
  discard(): void;
}

/** Keeps the store's unsaved edits in localStorage until they are saved or discarded. */
export function keepDrafts(store: EditorStore): DraftKeeper {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let discarded = false;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (discarded) clearDraft(store.getState().workflowId);
    else writeDraft(store);
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.revision === prev.revision && s.layoutRevision === prev.layoutRevision && s.savedRevision === prev.savedRevision && s.workflowId === prev.workflowId && s.savedLayoutRevision === prev.savedLayoutRevision) return;
    if (s.revision !== prev.revision) discarded = false; // new edits after a discard are kept again
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, WRITE_DELAY_MS);
  });
  window.addEventListener('pagehide', flush);
  return {
    stop() {
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      flush();
    },
    discard() {
      discarded = true;
      flush();
    },
  };
}

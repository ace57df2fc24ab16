// Unsaved edits are kept in localStorage until saved, so a crash or a reload loses nothing; a kept draft is
// restored over what the server gave (and said so), and "Discard them" goes back to the server's version.
import { useCallback, useEffect, useRef, useState } from 'react';
import { keepDrafts, type Draft, type DraftKeeper } from '../../store/drafts';
import type { EditorStore, LoadInput } from '../../store/editorStore';

export interface Drafts {
  /** The draft restored on load, while its banner shows (null: none, or dismissed). */
  restored: Draft | null;
  /** Puts a kept draft over the loaded workflow (stable). */
  restoreDraft(draft: Draft): void;
  /** Drops the restored draft: back to what the server gave. */
  discardRestored(): void;
  /** Hides the banner, keeping the restored edits. */
  dismissRestored(): void;
  /** Forgets the kept draft (the user chose to leave without saving; stable). */
  discardKept(): void;
}

export function useDrafts(store: EditorStore): Drafts {
  const [restored, setRestored] = useState<Draft | null>(null);
  const keeper = useRef<DraftKeeper | null>(null);

  useEffect(() => {
    const k = keepDrafts(store);
    keeper.current = k;
    return () => {
      k.stop();
      if (keeper.current === k) keeper.current = null;
    };
  }, [store]);

  // What the server gave on load, so that "Discard" can go back to it.
  const loaded = useRef<LoadInput | null>(null);
  const restoreDraft = useCallback(
    (draft: Draft) => {
      loaded.current = {
        workflowId: store.getState().workflowId,
        version: store.getState().savedVersion,
        doc: store.getState().doc,
        source: store.getState().source,
        layout: store.getState().layout,
      };
      store.getState().replaceAll(draft.doc, draft.source, draft.layout);
      setRestored(draft);
    },
    [store],
  );
  const discardRestored = () => {
    keeper.current?.discard();
    if (loaded.current) store.getState().load(loaded.current);
    store.getState().requestFit();
    setRestored(null);
  };
  const discardKept = useCallback(() => keeper.current?.discard(), []);

  return { restored, restoreDraft, discardRestored, dismissRestored: () => setRestored(null), discardKept };
}

import { useEffect } from 'react';
import { deleteSelection } from '../canvas/deleteSelection';
import type { EditorStore } from '../store/editorStore';

/** Typing in a field, a select or the YAML view: the editor's shortcuts (but save) leave the keys alone. */
function isEditable(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.cm-editor');
}

/**
 * The editor's keyboard: Ctrl+S saves (everywhere); outside text fields and
 * dialogs, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo, Delete removes the
 * selection.
 */
export function useEditorKeys(store: EditorStore, save: () => Promise<void>, dialogOpen: boolean): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void save();
        return;
      }
      if (isEditable(e.target) || dialogOpen) return;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) store.getState().redo();
        else store.getState().undo();
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        store.getState().redo();
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        deleteSelection(store);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, save, dialogOpen]);
}

import { useEffect } from 'react';
import { deleteSelection } from '../canvas/deleteSelection';
import { localKeys } from '../doc/keys';
import type { EditorStore } from '../store/editorStore';
import { isShortcut } from './commands/shortcuts';
import { useClipboardKeys } from './selection/useClipboardKeys';

/** Typing in a field, a select or the YAML view: the editor's shortcuts (but save) leave the keys alone. */
function isEditable(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.cm-editor');
}

/** The dialogs the keyboard opens. */
export interface KeyDialogs {
  openCommands(): void;
  openHelp(): void;
}

/**
 * The editor's keyboard (the keys are in commands/shortcuts.ts): Ctrl+S saves
 * and Ctrl/Cmd+K opens the command palette (everywhere, but Ctrl+K not over
 * another dialog); outside text fields and dialogs, `?` shows the shortcuts,
 * Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo, Ctrl+A selects every step, Delete removes the selection;
 * copy, cut, paste and Ctrl+D are useClipboardKeys's. While an include is open over the canvas, only
 * Escape (back one level), `?` and the keys that work everywhere do anything.
 */
export function useEditorKeys(store: EditorStore, save: () => Promise<void>, dialogOpen: boolean, dialogs?: KeyDialogs): void {
  useClipboardKeys(store);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isShortcut('save', e)) {
        e.preventDefault();
        void save();
        return;
      }
      if (isShortcut('commands', e)) {
        e.preventDefault();
        if (!dialogOpen) dialogs?.openCommands();
        return;
      }
      if (isEditable(e.target) || dialogOpen) return;
      // An opened include covers the canvas and is read only: Escape closes it (a level at a time) and the
      // editing keys leave the workflow underneath alone.
      const opened = store.getState().drill.length;
      if (opened > 0 && !isShortcut('help', e)) {
        if (isShortcut('select-none', e)) {
          e.preventDefault();
          store.getState().closeIncludes(opened - 1);
        }
        return;
      }
      if (isShortcut('help', e)) {
        e.preventDefault();
        dialogs?.openHelp();
      } else if (isShortcut('undo', e)) {
        e.preventDefault();
        store.getState().undo();
      } else if (isShortcut('redo', e) || isShortcut('redo-y', e)) {
        e.preventDefault();
        store.getState().redo();
      } else if (isShortcut('delete', e)) {
        e.preventDefault();
        deleteSelection(store);
      } else if (isShortcut('select-none', e) && store.getState().selectedKeys.length > 1) {
        store.getState().select({ kind: 'workflow' });
      } else if (isShortcut('select-all', e)) {
        e.preventDefault();
        const { doc } = store.getState();
        store.getState().selectSteps(Array.isArray(doc.steps) ? localKeys(doc.steps) : []);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, save, dialogOpen, dialogs]);
}

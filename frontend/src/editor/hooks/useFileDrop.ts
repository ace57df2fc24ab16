// A YAML or JSON file dropped on the editor is imported into it (unless the workflow is read only).
import { useState, type DragEvent } from 'react';
import { errorText } from '../../api/client';
import type { EditorStore } from '../../store/editorStore';
import { fileText, importText } from '../ImportDialog';
import type { Notice } from './useNotice';

export function useFileDrop(store: EditorStore, editDenied: string | null, say: (notice: Notice) => void) {
  const [dragOver, setDragOver] = useState(false);
  const dropHandlers = {
    onDragOver: (e: DragEvent<HTMLElement>) => {
      if (e.dataTransfer.types.includes('Files')) {
        e.preventDefault();
        setDragOver(true);
      }
    },
    onDragLeave: (e: DragEvent<HTMLElement>) => e.currentTarget === e.target && setDragOver(false),
    onDrop: (e: DragEvent<HTMLElement>) => {
      const file = e.dataTransfer.files[0];
      setDragOver(false);
      if (!file) return;
      e.preventDefault();
      if (store.getState().readOnly) {
        say({ kind: 'error', text: `Could not import ${file.name}: ${editDenied ?? 'this workflow is read only.'}` });
        return;
      }
      fileText(file)
        .then((t) => importText(store, t))
        .then((problem) => problem && say({ kind: 'error', text: `Could not import ${file.name}: ${problem}` }))
        .catch((err) => say({ kind: 'error', text: errorText(err) }));
    },
  };
  return { dragOver, dropHandlers };
}

import { disconnect, removeSteps } from '../doc/ops';
import type { EditorStore } from '../store/editorStore';

/** Keyboard delete: the selected step (and its inner steps) or dependency. */
export function deleteSelection(store: EditorStore): void {
  const { selection, doc, readOnly } = store.getState();
  if (readOnly || !selection) return;
  if (selection.kind === 'step') {
    store.getState().applyDoc(removeSteps(doc, [selection.key]), { select: null });
  } else if (selection.kind === 'edge') {
    store.getState().applyDoc(disconnect(doc, selection.source, selection.target), { select: null });
  }
}

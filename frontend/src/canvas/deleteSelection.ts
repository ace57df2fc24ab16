import { disconnect, removeSteps } from '../doc/ops';
import type { EditorStore } from '../store/editorStore';

/** The steps selected now: the multi-selection, else the one step in the inspector. */
export function selectedStepKeys(store: EditorStore): string[] {
  const { selectedKeys, selection } = store.getState();
  if (selectedKeys.length > 0) return selectedKeys;
  return selection?.kind === 'step' ? [selection.key] : [];
}

/** Keyboard delete: the selected steps (and their inner steps), as one undo step, or the selected dependency. */
export function deleteSelection(store: EditorStore): void {
  const { selection, doc, readOnly } = store.getState();
  if (readOnly || !selection) return;
  const keys = selectedStepKeys(store);
  if (keys.length > 0) {
    store.getState().applyDoc(removeSteps(doc, keys), { select: null });
  } else if (selection.kind === 'edge') {
    store.getState().applyDoc(disconnect(doc, selection.source, selection.target), { select: null });
  }
}

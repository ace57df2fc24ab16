// After a file of the folder is saved: the editor follows the new version, and the main workflow is checked
// again (a renamed or deleted file may break an include or a @file reference).
import type { EditorStore } from '../../store/types';

export function afterFolderSave(store: EditorStore, version: number): void {
  const s = store.getState();
  if (s.workflowId === null) return;
  s.markSaved(s.workflowId, version, s.savedRevision, s.savedLayoutRevision);
  s.revalidate();
}

// The playground's "Apply" as one undo step in the editor.
//
// Apply (runtime/runs/playground.py) writes the changed instructions or agent settings as a new version on the
// server, away from any editor, so no editor history holds the change. The simplest sound way to make it one undo
// step: the new version records the version it changed (`applied_from`, null for every other save), and the editor,
// when it opens such a version as the latest one (no ?version=, no kept draft over it, a role that edits), fetches
// that version and puts its document, text and layout under the oldest undo step. One Ctrl+Z then brings the old
// instructions and agent settings back as an unsaved draft (the server rewinds nothing); saving it makes yet
// another version, and Ctrl+Y goes forward to the applied one again. Versions never change, so the step back is
// exactly what was there before Apply; a version saved after it names nothing, and the step is gone.
import type { Workflow } from '../api/types';
import { isLayout, isObject, type WorkflowDoc } from '../doc/types';
import type { EditorStore } from '../store/editorStore';

export interface ApplyUndoApi {
  version(workflowId: number, n: number): Promise<Workflow>;
  render(body: { document: WorkflowDoc; format: 'yaml' }): Promise<{ text: string }>;
}

/** Gives the editor, just loaded with `wf`, one undo step back to the version Apply changed; true once it did. */
export async function seedApplyUndo(store: EditorStore, api: ApplyUndoApi, wf: Workflow): Promise<boolean> {
  const from = wf.applied_from;
  if (typeof from !== 'number' || store.getState().readOnly) return false;
  const before = await api.version(wf.id, from);
  if (!isObject(before.document)) return false;
  const doc = before.document as WorkflowDoc;
  // A version saved as a document has no text of its own: the server renders it, as a load would.
  const source = before.source || (await api.render({ document: doc, format: 'yaml' })).text;
  const now = store.getState();
  if (now.workflowId !== wf.id || now.savedVersion !== wf.version) return false; // another workflow or version since
  now.seedUndo({ doc, source, layout: isLayout(before.layout) ? before.layout : now.layout });
  now.notify({
    kind: 'info',
    text: `Version ${wf.version} was saved by Apply in the playground: Undo (Ctrl+Z) brings back version ${from} as an unsaved draft.`,
  });
  return true;
}

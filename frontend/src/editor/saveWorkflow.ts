import { api } from '../api/client';
import type { Workflow } from '../api/types';
import type { EditorStore } from '../store/editorStore';

/** Saves a new version (or creates the workflow, in `workspaceId`: absent, the personal one); returns its id and version, and the server's answer. */
export async function saveWorkflow(store: EditorStore, workspaceId?: number | null): Promise<{ id: number; version: number; workflow: Workflow }> {
  await store.getState().whenSynced();
  const s = store.getState();
  const revision = s.revision;
  const layoutRevision = s.layoutRevision;
  const body = s.source.trim() ? { source: s.source, layout: s.layout } : { document: s.doc, layout: s.layout };
  const wf =
    s.workflowId === null
      ? await api.createWorkflow(workspaceId ? { ...body, workspace_id: workspaceId } : body)
      : await api.saveWorkflow(s.workflowId, body);
  store.getState().markSaved(wf.id, wf.version, revision, layoutRevision);
  return { id: wf.id, version: wf.version, workflow: wf };
}


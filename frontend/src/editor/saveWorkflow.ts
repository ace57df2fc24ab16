import { api } from '../api/client';
import type { EditorStore } from '../store/editorStore';

/** Saves a new version (or creates the workflow); returns its id and version. */
export async function saveWorkflow(store: EditorStore): Promise<{ id: number; version: number }> {
  await store.getState().whenSynced();
  const s = store.getState();
  const revision = s.revision;
  const layoutRevision = s.layoutRevision;
  const body = s.source.trim() ? { source: s.source, layout: s.layout } : { document: s.doc, layout: s.layout };
  const wf = s.workflowId === null ? await api.createWorkflow(body) : await api.saveWorkflow(s.workflowId, body);
  store.getState().markSaved(wf.id, wf.version, revision, layoutRevision);
  return { id: wf.id, version: wf.version };
}


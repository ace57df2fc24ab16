// Saving, exporting and running the workflow in the editor: each says how it went in the editor's notice
// (a run that cannot start throws instead, for the run dialog to show).
import { useCallback, useState } from 'react';
import { api, errorText, type StartRunBody } from '../../api/client';
import { blockingRun, type Workflow } from '../../api/types';
import { navigate } from '../../router';
import { isDirty, type EditorStore } from '../../store/editorStore';
import { download, fileBase } from '../files';
import { saveWorkflow } from '../saveWorkflow';
import type { Notice } from './useNotice';

export interface SavingContext {
  workflowId: number | null;
  /** The version shown instead of the latest (saving it makes it the latest again). */
  viewingVersion: string | null;
  /** Why the user cannot save, or null. */
  editDenied: string | null;
  /** Where a new workflow is saved. */
  workspaceId: number | null;
  /** The server answered with the saved workflow (stable). */
  onSaved(wf: Workflow): void;
  /** Shows a notice (stable). */
  say(notice: Notice): void;
}

export function useSaving(store: EditorStore, { workflowId, viewingVersion, editDenied, workspaceId, onSaved, say }: SavingContext) {
  const [saving, setSaving] = useState(false);

  const save = useCallback(async () => {
    if (editDenied) {
      say({ kind: 'error', text: `Cannot save: ${editDenied}` });
      return;
    }
    const current = store.getState();
    if (!isDirty(current) && !viewingVersion) {
      say({ kind: 'info', text: `No changes since version ${current.savedVersion}: nothing to save.` });
      return;
    }
    setSaving(true);
    try {
      const { id, version: v, workflow } = await saveWorkflow(store, workspaceId);
      onSaved(workflow);
      say({ kind: 'info', text: `Saved as version ${v}.` });
      if (workflowId !== id || viewingVersion) void navigate(`/workflows/${id}`, { replace: true, force: true });
    } catch (e) {
      say({ kind: 'error', text: `Could not save: ${errorText(e)}` });
    } finally {
      setSaving(false);
    }
  }, [store, workflowId, viewingVersion, editDenied, workspaceId, onSaved, say]);

  const exportAs = async (format: 'yaml' | 'json', copy = false) => {
    try {
      await store.getState().whenSynced();
      const s = store.getState();
      if (!s.valid) {
        say({ kind: 'error', text: 'Fix the errors first: only a valid workflow can be exported. You can still save it as a draft.' });
        return;
      }
      const { text } = await api.render({ document: s.doc, format, source: format === 'yaml' ? s.source : undefined });
      if (copy) {
        await navigator.clipboard.writeText(text);
        say({ kind: 'info', text: `Copied the ${format.toUpperCase()} to the clipboard.` });
      } else {
        download(`${fileBase(s.doc)}.${format}`, text, format === 'yaml' ? 'application/yaml' : 'application/json');
      }
    } catch (e) {
      say({ kind: 'error', text: `Could not export: ${errorText(e)}` });
    }
  };

  const startRun = async (body: Omit<StartRunBody, 'workflow_id'>) => {
    // Only a valid workflow runs: never save a version just to have the run refused.
    await store.getState().whenSynced();
    const checked = store.getState();
    if (checked.valid !== true) {
      const n = checked.errors.length;
      throw new Error(`Fix the ${n === 1 ? 'error' : `${n} errors`} in the Problems panel first: only a valid workflow can run.`);
    }
    const blocked = blockingRun(checked.warnings);
    if (blocked.length) throw new Error(`Fix this first (see Problems): ${blocked[0].message}`);
    let id = store.getState().workflowId;
    let v = store.getState().savedVersion ?? undefined;
    if (id === null || isDirty(store.getState())) {
      if (editDenied) throw new Error(`These changes cannot be saved, so they cannot run: ${editDenied}`);
      const saved = await saveWorkflow(store, workspaceId);
      onSaved(saved.workflow);
      id = saved.id;
      v = saved.version;
    }
    const run = await api.startRun({ ...body, workflow_id: id, version: v });
    void navigate(`/runs/${run.id}`, { force: true });
  };

  return { saving, save, exportAs, startRun };
}

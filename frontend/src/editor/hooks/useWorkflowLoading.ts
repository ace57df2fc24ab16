// Loads the workflow this page is for (a version of it, or a blank one) into the editor's store: the server
// re-checks it on load, a kept draft goes over it, and a missing layout comes from elkjs just after.
import { useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { Workflow } from '../../api/types';
import { layoutMissing, needsLayout } from '../../canvas/arrange';
import { seedApplyUndo } from '../applyUndo';
import { isLayout, isObject, type WorkflowDoc } from '../../doc/types';
import { preloadElk } from '../../layout/elk';
import { useEditor } from '../../store/context';
import { readDraft, type Draft } from '../../store/drafts';
import { blankDocument, type EditorStore } from '../../store/editorStore';
import { followWorkspace } from '../../workspaces/current';
import { capabilities } from '../../workspaces/roles';

export interface LoadHandlers {
  /** Puts a kept draft over what was loaded (stable: a new one loads again). */
  restoreDraft(draft: Draft): void;
  /** The server answered with the workflow (stable). */
  onLoaded(wf: Workflow): void;
  /** "Edit and run": opens the run dialog once the workflow is in (stable). */
  openRun(): void;
  /** A new workflow the user's role cannot create: shown read only. */
  newReadOnly: boolean;
}

export interface WorkflowLoading {
  /** Why the workflow could not be opened, or null. */
  loadError: string | null;
  /** The store does not hold this page's workflow yet. */
  loading: boolean;
  /** The version shown instead of the latest (?version=), or null. */
  viewingVersion: string | null;
  /** The run whose settings the run dialog starts from (?rerun=), or null. */
  rerunFrom: string | null;
}

export function useWorkflowLoading(store: EditorStore, workflowId: number | null, { restoreDraft, onLoaded, openRun, newReadOnly }: LoadHandlers): WorkflowLoading {
  const [loadError, setLoadError] = useState<string | null>(null);
  // Loading until the store holds the workflow this page is for (a new one is there at once).
  const loading = useEditor((s) => workflowId !== null && s.workflowId !== workflowId);
  const viewingVersion = new URLSearchParams(window.location.search).get('version');
  // "Edit and run" from a finished run: the run dialog opens with that run's settings once loaded.
  const rerunFrom = new URLSearchParams(window.location.search).get('rerun');

  // Load the workflow (or a blank one). The server re-checks it on load.
  useEffect(() => {
    if (workflowId !== null && store.getState().workflowId === workflowId) return; // just saved: same editor
    let cancelled = false;
    if (workflowId === null) {
      const draft = readDraft(null);
      store.getState().load({ workflowId: null, version: null, doc: blankDocument(), source: '', layout: null });
      // The draft lives in localStorage, outside React: restoring it (and saying so) is this effect's job.
      if (draft) restoreDraft(draft);
      void layoutMissing(store);
      return;
    }
    preloadElk(); // in parallel with the fetch: imported documents may need a layout
    const n = Number(viewingVersion);
    const fetch = viewingVersion && Number.isInteger(n) ? api.version(workflowId, n) : api.getWorkflow(workflowId);
    fetch
      .then(async (wf) => {
        if (cancelled) return;
        performance.mark('ld:fetched');
        const parsed = isObject(wf.document) ? (wf.document as WorkflowDoc) : { name: wf.name, steps: [] };
        // The server judged the saved version already: its diagnostics come with it.
        const judged = Array.isArray(wf.errors) && Array.isArray(wf.warnings) && typeof wf.valid === 'boolean';
        // A runner or a viewer sees the document read only (the server would refuse a save anyway).
        const readOnly = !capabilities(wf.role).edit;
        onLoaded(wf);
        followWorkspace(wf.workspace_id);
        store.getState().load({
          readOnly,
          workflowId: wf.id,
          version: wf.version,
          doc: parsed,
          source: wf.source ?? '',
          layout: isLayout(wf.layout) ? wf.layout : null,
          ...(judged ? { errors: wf.errors, warnings: wf.warnings, valid: wf.valid, iterationOutputs: wf.iteration_outputs ?? {} } : {}),
        });
        if (viewingVersion) store.getState().markSaved(wf.id, wf.version, -1, -1);
        else if (!readOnly) {
          const draft = readDraft(wf.id);
          if (draft) restoreDraft(draft);
          // A version the playground's Apply made: one undo step back to the one it changed (applyUndo.ts).
          else void seedApplyUndo(store, api, wf).catch(() => false);
        }
        // Interactive at once; a missing layout comes from elkjs (in a worker) just after.
        if (rerunFrom && !viewingVersion && capabilities(wf.role).run) openRun();
        store.getState().requestFit();
        if (needsLayout(store)) {
          void layoutMissing(store).then(() => {
            performance.mark('ld:laid-out');
            if (!cancelled) store.getState().requestFit();
          });
        }
      })
      .catch((e) => {
        if (!cancelled) setLoadError(errorText(e));
      });
    return () => {
      cancelled = true;
    };
  }, [workflowId, store, viewingVersion, rerunFrom, restoreDraft, onLoaded, openRun]);

  // A new workflow in a workspace where the role cannot create one: nothing to edit (the role may arrive after the load).
  useEffect(() => {
    if (workflowId === null && store.getState().workflowId === null) store.setState({ readOnly: newReadOnly });
  }, [workflowId, store, newReadOnly]);

  return { loadError, loading, viewingVersion, rerunFrom };
}

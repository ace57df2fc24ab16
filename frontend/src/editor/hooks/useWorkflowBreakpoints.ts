// The editor's saved workflow's breakpoints, loaded into its store (for the canvas's margin dots, the inspector
// and the run dialog) whenever the store holds another saved workflow.
import { useEffect } from 'react';
import { api } from '../../api/client';
import { loadBreakpoints } from '../../breakpoints/sync';
import { useEditor } from '../../store/context';
import type { EditorStore } from '../../store/editorStore';

export function useWorkflowBreakpoints(store: EditorStore): void {
  const workflowId = useEditor((s) => s.workflowId);
  useEffect(() => {
    if (workflowId === null) store.getState().showBreakpoints({ breakpoints: null });
    else void loadBreakpoints(store, api, workflowId);
  }, [store, workflowId]);
}

import { useEffect, useState } from 'react';
import { api, errorText } from '../api/client';
import { layoutMissing } from '../canvas/arrange';
import { isLayout, isObject, type WorkflowDoc } from '../doc/types';
import type { EditorStore } from '../store/editorStore';
import { RunStream } from './socket';

export interface RunLoad {
  /** Why the run could not be opened, in words. */
  error: string | null;
  /** The workflow is loaded and laid out: the canvas can draw. */
  ready: boolean;
  /** The event stream's connection state (connecting, live, closed ...). */
  conn: string;
}

/**
 * Opens a run: its record, then the workflow version it ran (read only), then
 * its event stream, which replays the stored events and follows new ones.
 */
export function useRunLoader(runId: string, store: EditorStore): RunLoad {
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [conn, setConn] = useState('connecting');

  useEffect(() => {
    let stream: RunStream | null = null;
    let cancelled = false;
    (async () => {
      try {
        const r = await api.getRun(runId);
        if (cancelled) return;
        store.getState().setRun(r);
        const wf =
          r.version !== null
            ? await api.version(r.workflow_id, r.version).catch(() => api.getWorkflow(r.workflow_id))
            : await api.getWorkflow(r.workflow_id);
        if (cancelled) return;
        const doc = isObject(wf.document) ? (wf.document as WorkflowDoc) : { name: wf.name, steps: [] };
        store.getState().load({
          workflowId: wf.id,
          version: wf.version,
          doc,
          source: wf.source ?? '',
          layout: isLayout(wf.layout) ? wf.layout : null,
          errors: wf.errors ?? [],
          warnings: wf.warnings ?? [],
          valid: wf.valid,
          iterationOutputs: wf.iteration_outputs ?? {},
          readOnly: true,
        });
        await layoutMissing(store);
        setReady(true);
        store.getState().requestFit();
        stream = new RunStream(runId, {
          onEvents: (events) => store.getState().addEvents(events),
          onRun: (next) => store.getState().setRun(next),
          onState: setConn,
          lastSeq: () => store.getState().runState.lastSeq,
        });
        stream.start();
      } catch (e) {
        if (!cancelled) setError(errorText(e));
      }
    })();
    return () => {
      cancelled = true;
      stream?.stop();
    };
  }, [runId, store]);

  return { error, ready, conn };
}

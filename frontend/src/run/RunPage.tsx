// The run view: the workflow's canvas (read only) coloured by live events,
// loop iteration strips, judge verdicts, streamed output, prompts, metrics,
// the agents' tool calls (and the ones waiting for approval) and the run's workspace.
// A finished run replays the same way, from its stored events.
import { useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { api } from '../api/client';
import { Canvas } from '../canvas/Canvas';
import { Link } from '../components/Link';
import { EditorContext, useEditor, useEditorStore } from '../store/context';
import { createEditorStore } from '../store/editorStore';
import { PendingApprovals } from './PendingApprovals';
import { RunHeader } from './RunHeader';
import { RunSide } from './RunSide';
import { SandboxWarning } from './SandboxWarning';
import { useRunLoader } from './useRunLoader';
import { useRunWorkspace } from './useRunWorkspace';

export function RunPage({ runId }: { runId: string }) {
  const [store] = useState(() => createEditorStore(api));
  return (
    <EditorContext.Provider value={store}>
      <ReactFlowProvider>
        <RunView runId={runId} />
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
}

function RunView({ runId }: { runId: string }) {
  const store = useEditorStore();
  const { error, ready, conn } = useRunLoader(runId, store);
  const workspace = useRunWorkspace(runId);
  const lastSeq = useEditor((s) => s.runState.lastSeq);
  const applied = useEditor((s) => s.runState.applied);
  // Every hook above this line (rules of hooks): the page that says the run cannot be opened renders fewer
  // components, never fewer hooks.
  if (error) {
    return (
      <div className="page-message">
        <h2>Could not open this run</h2>
        <p className="muted">{error}</p>
        <Link to="/runs" className="btn">
          All runs
        </Link>
      </div>
    );
  }
  return (
    <div className="run-page" data-testid="run-page" data-last-seq={lastSeq} data-applied={applied} data-conn={conn}>
      <RunHeader runId={runId} conn={conn} />
      <SandboxWarning info={workspace.info} />
      <PendingApprovals runId={runId} />
      <div className="run-body">
        <div className="canvas-wrap">{ready ? <Canvas /> : <div className="canvas-empty muted">Loading the run…</div>}</div>
        <RunSide runId={runId} workspace={workspace} />
      </div>
    </div>
  );
}

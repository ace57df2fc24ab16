// The run view: the workflow's canvas (read only) coloured by live events,
// loop iteration strips, judge verdicts, streamed output, prompts, metrics,
// the agents' tool calls (and the ones waiting for approval) and the run's workspace;
// with a coordinator, its lane, the messages flying over the canvas and the run's summary.
// A finished run replays the same way, from its stored events.
// A big run (thousands of loop items, tens of thousands of events) is drawn from
// the server's view of it instead: folding every event would freeze the tab.
import { memo, useState } from 'react';
import { ReactFlowProvider } from '@xyflow/react';
import { api } from '../api/client';
import { Canvas } from '../canvas/Canvas';
import { Link } from '../components/Link';
import { EditorContext, useEditor, useEditorStore } from '../store/context';
import { createEditorStore } from '../store/editorStore';
import { CoordinatorLane, useHasCoordinator } from './CoordinatorLane';
import { MessageFlights } from './MessageFlights';
import { BreakpointHold } from './BreakpointHold';
import { PendingApprovals } from './PendingApprovals';
import { BigRunPage } from './big/BigRunPage';
import { RunHeader } from './RunHeader';
import { RunSide } from './RunSide';
import { RunSummary } from './RunSummary';
import { SandboxWarning } from './SandboxWarning';
import { useRunLoader } from './useRunLoader';
import { useRunWorkspace } from './useRunWorkspace';
import { runMode, type RunMode } from './view/mode';
import { useRunView } from './view/useRunView';
import './coordinator.css';

/** `?raw=1`: today's page whatever the run's size, folding every event (to compare; bench/liveview.py does). */
function wantsRaw(): boolean {
  return new URLSearchParams(window.location.search).get('raw') === '1';
}

export function RunPage({ runId }: { runId: string }) {
  const [raw] = useState(wantsRaw);
  return raw ? <NormalRunPage runId={runId} /> : <ChosenRunPage runId={runId} />;
}

/**
 * Opens the run's view first (it is small whatever the run's size) and picks the page from it:
 * the big-run page, or the normal one, which folds every event. The view stays open under the
 * normal page, so a run that turns big while watched switches over.
 */
function ChosenRunPage({ runId }: { runId: string }) {
  const live = useRunView(runId);
  const [mode, setMode] = useState<RunMode>('loading');
  const next = runMode(live.view, mode, live.unavailable);
  if (next !== mode) setMode(next);
  if (next === 'big') return <BigRunPage runId={runId} live={live} />;
  if (next === 'normal') return <NormalRunPage runId={runId} />;
  return (
    <div className="run-page" data-testid="run-loading">
      <div className="canvas-empty muted" role="status">
        Loading the run…
      </div>
    </div>
  );
}

/** Today's run page. Memoised: the view's patches re-render RunPage, never this. */
const NormalRunPage = memo(function NormalRunPage({ runId }: { runId: string }) {
  const [store] = useState(() => createEditorStore(api));
  return (
    <EditorContext.Provider value={store}>
      <ReactFlowProvider>
        <RunView runId={runId} />
      </ReactFlowProvider>
    </EditorContext.Provider>
  );
});

function RunView({ runId }: { runId: string }) {
  const store = useEditorStore();
  const { error, ready, conn } = useRunLoader(runId, store);
  const workspace = useRunWorkspace(runId);
  const lastSeq = useEditor((s) => s.runState.lastSeq);
  const applied = useEditor((s) => s.runState.applied);
  const lane = useHasCoordinator();
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
      <RunSummary />
      <SandboxWarning info={workspace.info} />
      <BreakpointHold runId={runId} />
      <PendingApprovals runId={runId} />
      <div className={`run-body${lane ? ' with-lane' : ''}`}>
        <div className="canvas-wrap">
          {ready ? (
            <>
              <Canvas />
              <MessageFlights />
            </>
          ) : (
            <div className="canvas-empty muted">Loading the run…</div>
          )}
        </div>
        {lane && <CoordinatorLane />}
        <RunSide runId={runId} workspace={workspace} />
      </div>
    </div>
  );
}

import { useState } from 'react';
import { api, errorText, type StartRunBody } from '../api/client';
import { Banner } from '../components/Banner';
import { Link } from '../components/Link';
import { navigate } from '../router';
import { useEditor, useEditorStore } from '../store/context';
import { shortId } from './labels';
import { RunFigures } from './RunFigures';
import { isTerminal } from './socket';
import { useShownStatus } from './useShownStatus';

/** The run view's toolbar: which run, its status and figures, the connection, and the control actions. */
export function RunHeader({ runId, conn }: { runId: string; conn: string }) {
  const store = useEditorStore();
  const run = useEditor((s) => s.run);
  const { status, reason } = useShownStatus();
  const [actionError, setActionError] = useState<string | null>(null);
  const [rerunning, setRerunning] = useState(false);

  const control = async (action: 'pause' | 'resume' | 'stop') => {
    setActionError(null);
    try {
      store.getState().setRun(await api.control(runId, action));
    } catch (e) {
      setActionError(`Could not ${action} the run: ${errorText(e)}`);
    }
  };

  const runAgain = async () => {
    if (!run) return;
    setRerunning(true);
    try {
      const again = await api.startRun({
        workflow_id: run.workflow_id,
        version: run.version ?? undefined,
        provider: (run.provider as StartRunBody['provider']) ?? 'simulated',
        model: run.model || undefined,
        script: run.script ?? undefined,
        budgets: run.budgets && Object.keys(run.budgets).length ? run.budgets : undefined,
        policies: run.policies ?? undefined,
      });
      void navigate(`/runs/${again.id}`);
    } catch (e) {
      setActionError(`Could not run again: ${errorText(e)}`);
    } finally {
      setRerunning(false);
    }
  };

  const finished = isTerminal(status);
  const connLabel = finished ? 'finished · replay' : conn === 'live' ? '● live' : conn === 'closed' ? 'offline' : conn;
  const connTitle = finished ? 'The run has finished: this view replays its stored events' : 'Live connection';
  const doneTitle = finished ? `The run has ${status === 'completed' ? 'completed' : status === 'failed' ? 'failed' : 'been stopped'}` : undefined;
  return (
    <>
      <div className="toolbar">
        <div className="toolbar-title">
          <span className="wf-name">
            Run {shortId(runId)} · {run ? <Link to={`/workflows/${run.workflow_id}`} title={run.workflow_name}>
                {run.workflow_name}
              </Link> : '…'}
          </span>
          {run && <span className="muted small">v{run.version}</span>}
          {status && (
            <span className={`pill status-pill status-${status}`} data-testid="run-status">
              {status}
            </span>
          )}
          {reason && (
            <span className="muted small run-reason" title={reason}>
              {reason}
            </span>
          )}
        </div>
        <div className="toolbar-actions">
          <RunFigures run={run} status={status} />
          <span className={`conn conn-${finished ? 'finished' : conn}`} title={connTitle} data-testid="conn">
            {connLabel}
          </span>
          <button className="btn ghost small" disabled={status !== 'running'} title={doneTitle} onClick={() => void control('pause')} data-testid="pause">
            Pause
          </button>
          <button className="btn ghost small" disabled={status !== 'paused'} title={doneTitle} onClick={() => void control('resume')} data-testid="resume">
            Resume
          </button>
          {finished && run ? (
            <>
              <button className="btn small" onClick={() => void navigate(`/workflows/${run.workflow_id}?rerun=${run.id}`)} title="Open the workflow with this run's settings in the run dialog" data-testid="edit-and-run">
                Edit and run
              </button>
              <button className="btn primary small" disabled={rerunning} onClick={() => void runAgain()} title="Start a new run of the same version with the same settings" data-testid="run-again">
                {rerunning ? 'Starting…' : '▶ Run again'}
              </button>
            </>
          ) : (
            <button className="btn ghost small danger" disabled={!status || finished} title={doneTitle} onClick={() => void control('stop')} data-testid="stop">
              Stop
            </button>
          )}
        </div>
      </div>
      {actionError && (
        <Banner kind="error" onClose={() => setActionError(null)}>
          {actionError}
        </Banner>
      )}
    </>
  );
}

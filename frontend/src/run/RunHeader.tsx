import { useEffect, useState } from 'react';
import { ApiError, api, errorText, type StartRunBody } from '../api/client';
import { Banner } from '../components/Banner';
import { navigate } from '../router';
import { useEditor, useEditorStore } from '../store/context';
import { RunTitle } from './RunTitle';
import { RunFigures } from './RunFigures';
import { RunOptionsNote } from './RunOptionsNote';
import { isThinkingLevel, permissionsForRequest, permissionsFromRun } from './permissions';
import { ParentLink } from './fork/ParentLink';
import { ResumedNote } from './ResumedNote';
import { CompareWithButton } from './compare/CompareWithButton';
import { controlsOffTitle, PauseResumeButtons, RunStatusWords, StopButton, type ControlAction } from './RunControls';
import { isTerminal } from './socket';
import { useShownStatus } from './useShownStatus';
import { followWorkspace, useWorkspace, useWorkspaces } from '../workspaces/current';
import { cannotRunReason } from '../workspaces/roles';
import { limitMessage } from '../workspaces/usage';

/** The run view's toolbar: which run, its status and figures, the connection, and the control actions. */
export function RunHeader({ runId, conn }: { runId: string; conn: string }) {
  const store = useEditorStore();
  const run = useEditor((s) => s.run);
  const { status, reason } = useShownStatus();
  const [actionError, setActionError] = useState<string | null>(null);
  const [rerunning, setRerunning] = useState(false);
  // The run's workspace and the user's role there: a viewer watches, and cannot control or start runs.
  const workspace = useWorkspace(run?.workspace_id);
  const me = useWorkspaces((s) => s.username);
  const denied = cannotRunReason(workspace?.role, workspace?.name);
  const workspaceId = run?.workspace_id;
  useEffect(() => followWorkspace(workspaceId), [workspaceId]);

  const control = async (action: ControlAction) => {
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
        model_override: run.model_override || undefined,
        script: run.script ?? undefined,
        budgets: run.budgets && Object.keys(run.budgets).length ? run.budgets : undefined,
        policies: run.policies ?? undefined,
        ask_before: run.ask_before?.length ? run.ask_before : undefined,
        workspace_upload: run.workspace_seed?.upload,
        workspace_from_run: run.workspace_seed?.from_run,
        coordinator: run.coordinator === 'narrate' || run.coordinator === 'summary-only' || run.coordinator === 'off' ? run.coordinator : undefined,
        shared_memory: run.shared_memory || undefined,
        permissions: permissionsForRequest(permissionsFromRun(run.permissions)),
        thinking: isThinkingLevel(run.thinking) ? run.thinking : undefined,
      });
      void navigate(`/runs/${again.id}`);
    } catch (e) {
      setActionError(`Could not run again: ${e instanceof ApiError && e.status === 429 ? limitMessage(e.message, e.retryAfterSeconds) : errorText(e)}`);
    } finally {
      setRerunning(false);
    }
  };

  const finished = isTerminal(status);
  const connLabel = finished ? 'finished · replay' : conn === 'live' ? '● live' : conn === 'closed' ? 'offline' : conn;
  const connTitle = finished ? 'The run has finished: this view replays its stored events' : 'Live connection';
  const doneTitle = controlsOffTitle(denied, status, finished);
  const startedBy = run?.started_by && me && run.started_by !== me ? run.started_by : null;
  return (
    <>
      <div className="toolbar">
        {/* Two lines: which run and how it ended, then its figures and connection. One line held them and the
            buttons only by cutting the workflow's name to a few letters at 1280 px. */}
        <div className="toolbar-title run-head">
          <div className="run-head-line">
            <RunTitle runId={runId} run={run} />
            {run && <span className="muted small">v{run.version}</span>}
            {startedBy && (
              <span className="muted small nowrap" data-testid="run-started-by">
                started by {startedBy}
              </span>
            )}
            {denied && workspace && (
              <span className="pill small" title={denied} data-testid="run-watch-only">
                watch only · {workspace.role}
              </span>
            )}
            <ParentLink run={run} />
            <ResumedNote run={run} />
            <RunStatusWords status={status} reason={reason} testId="run-status" />
          </div>
          <div className="run-head-line">
            <RunFigures run={run} status={status} />
            <RunOptionsNote run={run} />
            <span className={`conn conn-${finished ? 'finished' : conn}`} title={connTitle} data-testid="conn">
              {connLabel}
            </span>
          </div>
        </div>
        <div className="toolbar-actions">
          <PauseResumeButtons status={status} denied={denied} title={doneTitle} onControl={(a) => void control(a)} />
          {finished && run ? (
            <>
              <CompareWithButton run={run} />
              <button
                className="btn small"
                disabled={!!denied}
                onClick={() => void navigate(`/workflows/${run.workflow_id}?rerun=${run.id}`)}
                title={denied ?? "Open the workflow with this run's settings in the run dialog"}
                data-testid="edit-and-run"
              >
                Edit and run
              </button>
              <button
                className="btn primary small"
                disabled={rerunning || !!denied}
                onClick={() => void runAgain()}
                title={denied ?? 'Start a new run of the same version with the same settings'}
                data-testid="run-again"
              >
                {rerunning ? 'Starting…' : '▶ Run again'}
              </button>
            </>
          ) : (
            <StopButton status={status} denied={denied} title={doneTitle} finished={finished} onControl={(a) => void control(a)} />
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

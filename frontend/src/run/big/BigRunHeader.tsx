import { useEffect, useState } from 'react';
import { CostFigure } from '../CostFigure';
import { api, errorText } from '../../api/client';
import type { Run } from '../../api/types';
import { Banner } from '../../components/Banner';
import { ResumedPill } from '../ResumedNote';
import { RunTitle } from '../RunTitle';
import { followWorkspace, useWorkspace } from '../../workspaces/current';
import { cannotRunReason } from '../../workspaces/roles';
import { elapsedMs, pausedTime } from '../labels';
import { formatMs } from '../reduce';
import { isTerminal } from '../socket';
import { controlsOffTitle, PauseResumeButtons, RunStatusWords, StopButton, type ControlAction } from '../RunControls';
import type { ViewRun } from '../view/merge';
import type { ViewConn } from '../view/viewSocket';
import { useNow } from './useLater';

export interface BigRunHeaderProps {
  runId: string;
  run: Run | null;
  viewRun: ViewRun;
  status: string | undefined;
  reason: string | null;
  conn: ViewConn;
  acceptRun(run: Run): void;
  /** Failed items and rounds over all loops (the run may have completed past them). */
  failedItems?: number;
}

/** The big-run page's toolbar: which run, its status, the server's figures, the connection, and the control actions. */
export function BigRunHeader({ runId, run, viewRun, status, reason, conn, acceptRun, failedItems = 0 }: BigRunHeaderProps) {
  const [actionError, setActionError] = useState<string | null>(null);
  // The run's workspace and the user's role there: a viewer watches, and cannot control runs.
  const workspace = useWorkspace(run?.workspace_id);
  const denied = cannotRunReason(workspace?.role, workspace?.name);
  const workspaceId = run?.workspace_id;
  useEffect(() => followWorkspace(workspaceId), [workspaceId]);

  const finished = isTerminal(status);
  const paused = status === 'paused';
  const now = useNow(!finished && !paused && !!viewRun.started);

  const control = async (action: ControlAction) => {
    setActionError(null);
    try {
      acceptRun(await api.control(runId, action));
    } catch (e) {
      setActionError(`Could not ${action} the run: ${errorText(e)}`);
    }
  };

  const started = viewRun.started ?? run?.started_at ?? null;
  const ended = viewRun.ended ?? run?.finished_at ?? null;
  // The record says since when the run is paused and for how long it was before: the clock leaves both out.
  const pause = pausedTime(run, { at: null, total: 0 });
  const elapsed = elapsedMs(started ? Date.parse(started) : null, ended ? Date.parse(ended) : null, now, pause.at, pause.total);
  // The server's totals: the engine's own at the end, the same number every page shows.
  const tokens = viewRun.tokens;
  const cost = viewRun.cost_usd ?? run?.cost_usd ?? null;
  const behind = !finished && conn === 'reconnecting';
  const connLabel = finished ? 'finished' : conn === 'live' ? '● live' : conn === 'reconnecting' ? 'reconnecting…' : conn === 'closed' ? 'offline' : 'connecting…';
  const doneTitle = controlsOffTitle(denied, status, finished);
  return (
    <>
      <div className="toolbar">
        <div className="toolbar-title">
          <RunTitle runId={runId} run={run} />
          <span className="pill small" title="This run is too big to replay event by event: the page draws the server's summary of it">
            big run
          </span>
          <RunStatusWords status={status} reason={reason} testId="big-run-status" />
          {run?.resumed && <ResumedPill info={run.resumed} testId="big-run-resumed" />}
          {failedItems > 0 && (
            <span className="pill small pill-bad" data-testid="big-run-failed-items" title="The run went on past them (its failure policy): see Failed items below">
              {failedItems.toLocaleString()} failed
            </span>
          )}
        </div>
        <div className="toolbar-actions">
          <span className="figures muted small" data-testid="big-run-figures">
            {elapsed !== null ? formatMs(elapsed) : 'queued'}
            {paused ? ' (paused)' : ''} ·{' '}
            <span data-testid="big-run-tokens" data-total={tokens.total} title={`${tokens.prompt.toLocaleString()} in, ${tokens.completion.toLocaleString()} out`}>
              {tokens.total.toLocaleString()} tokens
            </span>
            <CostFigure cost={cost} provider={run?.provider} />
            {viewRun.tools_running > 0 ? ` · ${viewRun.tools_running} tool call${viewRun.tools_running === 1 ? '' : 's'} running` : ''}
          </span>
          {behind && (
            <span className="pill small behind" data-testid="big-run-behind" title="The connection dropped: the figures are as they were, until it is back">
              behind
            </span>
          )}
          <span className={`conn conn-${finished ? 'finished' : conn}`} data-testid="big-run-conn">
            {connLabel}
          </span>
          <PauseResumeButtons status={status} denied={denied} title={doneTitle} onControl={(a) => void control(a)} />
          <StopButton status={status} denied={denied} title={doneTitle} finished={finished} onControl={(a) => void control(a)} />
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

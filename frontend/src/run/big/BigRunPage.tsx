// The run page for big runs (a forEach over thousands of items, tens of
// thousands of events): drawn from the server's view of the run alone, never
// from its events, so the page's work follows the run's shape, not its length.
import { useMemo } from 'react';
import { isTerminal } from '../socket';
import type { View } from '../view/merge';
import type { RunViewLive } from '../view/useRunView';
import { bigStatus, failedItemCount } from './bigLabels';
import { SummaryBlock } from '../RunSummary';
import { BigEventsPanel } from './BigEventsPanel';
import { BigMessages, hasMail } from './BigMessages';
import { BigRunHeader } from './BigRunHeader';
import { ForEachLoop } from './ForEachLoop';
import { RepeatLoop } from './RepeatLoop';
import { StepRows } from './StepRows';
import './bigRun.css';
import '../coordinator.css';

/** Loops drawn at most: loops nested in iterations can be many, each with a view of its own. */
const MAX_LOOPS = 12;

/** The loops to draw: top-level ones first (in step order), then nested ones, up to MAX_LOOPS. */
function shownLoops(view: View): { ids: string[]; more: number } {
  const ids = Object.keys(view.loops);
  const top = ids.filter((id) => id in view.steps);
  const nested = ids.filter((id) => !(id in view.steps));
  const all = [...top, ...nested];
  return { ids: all.slice(0, MAX_LOOPS), more: Math.max(0, all.length - MAX_LOOPS) };
}

export function BigRunPage({ runId, live }: { runId: string; live: RunViewLive }) {
  const { run, view, conn, acceptRun } = live;
  const loops = useMemo(() => (view ? shownLoops(view) : { ids: [], more: 0 }), [view]);
  const steps = view?.steps;
  const stepIds = useMemo(() => Object.keys(steps ?? {}), [steps]);
  if (!view) {
    return (
      <div className="run-page">
        <div className="canvas-empty muted" role="status">
          Loading the run…
        </div>
      </div>
    );
  }
  const { status, reason } = bigStatus(run, view.run);
  const finished = isTerminal(status);
  const paused = status === 'paused' || view.run.paused;
  const active = !finished;
  const latestSeq = Math.max(view.seq, run?.last_seq ?? 0);
  return (
    <div className="run-page big-run" data-testid="big-run" data-seq={view.seq} data-status={status ?? ''} data-conn={conn}>
      <BigRunHeader runId={runId} run={run} viewRun={view.run} status={status} reason={reason} conn={conn} acceptRun={acceptRun} failedItems={failedItemCount(view.loops)} />
      {(run?.summary || view.mail?.synthesis) && <SummaryBlock summary={run?.summary || view.mail?.synthesis || ''} />}
      <div className="big-body">
        <main className="big-main">
          {status === 'queued' && <p className="muted">Waiting for a worker to pick the run up…</p>}
          {finished && (
            <div className={`banner banner-${status === 'completed' ? 'info' : 'error'}`} data-testid="big-run-finished">
              Run {status}
              {reason ? `: ${reason}` : ''}.
            </div>
          )}
          <h2 className="big-heading">Steps</h2>
          <StepRows steps={view.steps} loops={view.loops} />
          {loops.ids.map((id) => {
            const loop = view.loops[id];
            const props = { runId, loop, letters: view.items[id] ?? '', rounds: view.rounds?.[id], active, paused };
            return loop.type === 'repeat-until' ? <RepeatLoop key={id} {...props} /> : <ForEachLoop key={id} {...props} />;
          })}
          {hasMail(view.mail) && <BigMessages mail={view.mail} />}
          {loops.more > 0 && (
            <p className="muted small" data-testid="more-loops">
              and {loops.more.toLocaleString()} more loops inside iterations, not drawn here
            </p>
          )}
        </main>
        <aside className="run-side big-side" aria-label="Events">
          <h2 className="big-heading big-side-title">Events</h2>
          <div className="run-side-body">
            <BigEventsPanel runId={runId} latestSeq={latestSeq} stepIds={stepIds} live={active} />
          </div>
        </aside>
      </div>
    </div>
  );
}

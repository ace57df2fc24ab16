import { useEffect, useState } from 'react';
import { CostFigure } from './CostFigure';
import type { Run } from '../api/types';
import { useEditor } from '../store/context';
import { elapsedMs, pausedTime } from './labels';
import { formatMs } from './reduce';
import { isTerminal } from './socket';
import { inheritedFigures } from './fork/forkEdits';

/** The header's figures: elapsed time (ticking while the run goes, stopped while paused), tokens, cost, provider. */
export function RunFigures({ run, status }: { run: Run | null; status: string | undefined }) {
  const tokens = useEditor((s) => s.runState.tokens);
  const inherited = useEditor((s) => s.runState.inherited);
  const lastEventAt = useEditor((s) => {
    const last = s.runState.log[s.runState.log.length - 1];
    return last?.timestamp ? Date.parse(last.timestamp) : null;
  });
  const seen = useEditor((s) => s.pauseClock);
  const [now, setNow] = useState(() => Date.now());
  const paused = status === 'paused';
  const ticking = !!run && !isTerminal(status) && !paused;
  useEffect(() => {
    if (!ticking) return;
    // At once on resume, not a second later: the pause just added to the paused time would show as a step back.
    const first = setTimeout(() => setNow(Date.now()), 0);
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      clearTimeout(first);
      clearInterval(t);
    };
  }, [ticking]);
  if (!run) return null;
  const start = run.started_at ? Date.parse(run.started_at) : null;
  const finishedAt = run.finished_at ? Date.parse(run.finished_at) : isTerminal(status) ? (lastEventAt ?? now) : null;
  // The record's pauses, so a page opened mid-pause (or after one) reads the same as one open all along.
  const pause = pausedTime(run, seen);
  const elapsed = elapsedMs(start, finishedAt, Math.max(now, start ?? 0), pause.at, pause.total);
  // Tokens add up live from agent turns; the run record's total is final once the run is. A fork's record counts
  // what it inherited too, while its clock is its own: the header counts its own work, the inherited apart.
  const total = Math.max(run.tokens?.total ?? 0, tokens.total) - inherited.tokens;
  const cost = run.cost_usd !== null && run.cost_usd !== undefined ? Math.max(0, run.cost_usd - inherited.costUsd) : run.cost_usd;
  const fromParent = inheritedFigures(inherited, run.fork_point?.kind);
  const unpriced = run.unpriced_models ?? [];
  return (
    <span className="figures muted small" data-testid="run-figures">
      {elapsed !== null ? formatMs(elapsed) : 'queued'}
      {paused ? ' (paused)' : ''} · {total.toLocaleString()} tokens
      <CostFigure cost={cost} provider={run.provider} />
      {fromParent && (
        <span
          data-testid="run-inherited"
          title="The figures before are this fork's own. Inherited: copied from the parent run when the fork started, not run or billed again."
        >
          {' '}
          · inherited: {fromParent}
        </span>
      )}
      {unpriced.length > 0 && (
        <span className="unpriced" data-testid="unpriced" title={`No known price for ${unpriced.join(', ')}: their tokens are not in the cost.`}>
          {' '}
          + price unknown for {unpriced.join(', ')}
        </span>
      )}{' '}
      · {run.provider}
      {run.model_override && run.model && (
        <span data-testid="run-model-override" title="This run replaced every agent's and judge's model with this one (as zenflow's --model); the workflow names others">
          {' '}
          · every agent on {run.model}
        </span>
      )}
      {run.pins.length > 0 && (
        <span data-testid="run-pinned" title={`Pinned outputs answered ${run.pins.join(', ')}: those steps did not ask their model`}>
          {' '}
          · {run.pins.length} pinned
        </span>
      )}
      {run.trace_id && <TraceLink traceId={run.trace_id} url={run.trace_url ?? null} />}
    </span>
  );
}

/** The run's OpenTelemetry trace: a link to it when a template is set (OTEL_TRACE_LINK_TEMPLATE), else its id. */
function TraceLink({ traceId, url }: { traceId: string; url: string | null }) {
  const short = traceId.slice(0, 8);
  return (
    <span data-testid="run-trace" title={`OpenTelemetry trace ${traceId}`}>
      {' '}
      · trace{' '}
      {url ? (
        <a href={url} target="_blank" rel="noreferrer" data-testid="run-trace-link">
          {short}
        </a>
      ) : (
        <code>{short}</code>
      )}
    </span>
  );
}

import { useEffect, useState } from 'react';
import { CostFigure } from './CostFigure';
import type { Run } from '../api/types';
import { useEditor } from '../store/context';
import { elapsedMs, pausedTime } from './labels';
import { formatMs } from './reduce';
import { isTerminal } from './socket';

/** The header's figures: elapsed time (ticking while the run goes, stopped while paused), tokens, cost, provider. */
export function RunFigures({ run, status }: { run: Run | null; status: string | undefined }) {
  const tokens = useEditor((s) => s.runState.tokens);
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
  // Tokens add up live from agent turns; the run record's total is final once the run is.
  const total = Math.max(run.tokens?.total ?? 0, tokens.total);
  const unpriced = run.unpriced_models ?? [];
  return (
    <span className="figures muted small" data-testid="run-figures">
      {elapsed !== null ? formatMs(elapsed) : 'queued'}
      {paused ? ' (paused)' : ''} · {total.toLocaleString()} tokens
      <CostFigure cost={run.cost_usd} provider={run.provider} />
      {unpriced.length > 0 && (
        <span className="unpriced" data-testid="unpriced" title={`No known price for ${unpriced.join(', ')}: their tokens are not in the cost.`}>
          {' '}
          + price unknown for {unpriced.join(', ')}
        </span>
      )}{' '}
      · {run.provider}
    </span>
  );
}

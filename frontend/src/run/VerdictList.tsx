import { formatIterationId, iterationName } from './labels';
import type { IterationRun, Verdict } from './reduce';
import { ForkButton } from './fork/ForkButton';
import { PlaygroundButton } from './debug/PlaygroundDialog';

/** What judging one round took, in words: "judge: 412 tokens · $0.0012" (empty when nothing was counted). */
export function judgeCost(v: Verdict): string {
  const parts = [];
  if (v.tokens !== undefined) parts.push(`${v.tokens.toLocaleString('en-US')} tokens`);
  if (v.costUsd !== undefined) parts.push(`$${v.costUsd.toFixed(v.costUsd < 0.01 ? 6 : 4)}`);
  return parts.length ? `judge: ${parts.join(' · ')}` : '';
}

/**
 * The judge's verdict on each round that has one, with what judging it took, and "Re-run from here" on each row
 * (unless the list sits under a round that has its own button: `forkable` false), and "Try alone" on the judge call
 * (the playground, once the run has finished).
 */
export function VerdictList({ iterations, loop, forkable = true }: { iterations: IterationRun[]; loop?: string; forkable?: boolean }) {
  const withVerdict = iterations.filter((it) => it.verdict);
  if (!withVerdict.length) return null;
  return (
    <ul className="verdicts" data-testid="verdicts">
      {withVerdict.map((it) => {
        const v = it.verdict!;
        return (
          <li key={it.iteration} className={`verdict ${v.failedOpen ? 'failed-open' : v.done ? 'done' : 'not-done'}`} data-testid="verdict">
            <span className="verdict-round" title={loop ? `The judge's verdict on ${iterationName('round', it.iteration)} (${formatIterationId(loop, it.iteration, 'round')})` : undefined}>
              {iterationName('round', it.iteration)}
            </span>
            <strong>{v.failedOpen ? 'failed open' : v.done ? 'done' : 'not done'}</strong>
            {v.reason && <span className="verdict-reason">{v.reason}</span>}
            {judgeCost(v) && (
              <span className="verdict-cost" data-testid="verdict-cost">
                {judgeCost(v)}
              </span>
            )}
            {loop && forkable && !loop.includes('/') && <ForkButton at={{ step: loop, iteration: it.iteration }} testId={`fork-verdict-${loop}.${it.iteration}`} />}
            {loop && !v.failedOpen && !loop.includes('/') && <PlaygroundButton stepId={`${loop}.${it.iteration}.untilAgent`} />}
          </li>
        );
      })}
    </ul>
  );
}

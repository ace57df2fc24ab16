import { ordinal } from './labels';
import type { IterationRun, Verdict } from './reduce';
import { ForkButton } from './fork/ForkButton';

/** What judging one round took, in words: "judge: 412 tokens · $0.0012" (empty when nothing was counted). */
export function judgeCost(v: Verdict): string {
  const parts = [];
  if (v.tokens !== undefined) parts.push(`${v.tokens.toLocaleString('en-US')} tokens`);
  if (v.costUsd !== undefined) parts.push(`$${v.costUsd.toFixed(v.costUsd < 0.01 ? 6 : 4)}`);
  return parts.length ? `judge: ${parts.join(' · ')}` : '';
}

/** The judge's verdict on each iteration that has one, with what judging it took. */
export function VerdictList({ iterations, loop }: { iterations: IterationRun[]; loop?: string }) {
  const withVerdict = iterations.filter((it) => it.verdict);
  if (!withVerdict.length) return null;
  return (
    <ul className="verdicts" data-testid="verdicts">
      {withVerdict.map((it) => {
        const v = it.verdict!;
        return (
          <li key={it.iteration} className={`verdict ${v.failedOpen ? 'failed-open' : v.done ? 'done' : 'not-done'}`} data-testid="verdict">
            <span className="verdict-round">iteration {ordinal(it.iteration)}</span>
            <strong>{v.failedOpen ? 'failed open' : v.done ? 'done' : 'not done'}</strong>
            {v.reason && <span className="verdict-reason">{v.reason}</span>}
            {judgeCost(v) && (
              <span className="verdict-cost" data-testid="verdict-cost">
                {judgeCost(v)}
              </span>
            )}
            {loop && <ForkButton at={{ step: loop, iteration: it.iteration }} testId={`fork-verdict-${loop}.${it.iteration}`} />}
          </li>
        );
      })}
    </ul>
  );
}

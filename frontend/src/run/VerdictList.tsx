import { ordinal } from './labels';
import type { IterationRun } from './reduce';
import { ForkButton } from './fork/ForkButton';

/** The judge's verdict on each iteration that has one. */
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
            {loop && <ForkButton at={{ step: loop, iteration: it.iteration }} testId={`fork-verdict-${loop}.${it.iteration}`} />}
          </li>
        );
      })}
    </ul>
  );
}

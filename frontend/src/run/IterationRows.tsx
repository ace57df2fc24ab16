import { formatIterationId, iterationName, type IterationKind } from './labels';
import { formatMs, type IterationRun } from './reduce';
import { ForkButton } from './fork/ForkButton';

/**
 * A loop's rounds or items with no judge's verdict, one row each with "Re-run from here": the way to fork
 * from any of them without opening it on the strip first. (A judged loop's verdict rows carry the button.)
 */
export function IterationRows({ loop, kind, iterations }: { loop: string; kind: IterationKind; iterations: IterationRun[] }) {
  const rows = iterations.filter((it) => !it.verdict);
  if (!rows.length) return null;
  return (
    <ul className="verdicts" data-testid="iteration-rows">
      {rows.map((it) => (
        <li key={it.iteration} className="verdict" data-testid="iteration-row">
          <span className="verdict-round">{iterationName(kind, it.iteration)}</span>
          <span className="mono muted small">{formatIterationId(loop, it.iteration, kind)}</span>
          <span className={`status status-${it.status}`}>{it.status}</span>
          {it.durationMs !== undefined && <span className="muted small">{formatMs(it.durationMs)}</span>}
          {!loop.includes('/') && <ForkButton at={{ step: loop, iteration: it.iteration }} testId={`fork-row-${loop}.${it.iteration}`} />}
        </li>
      ))}
    </ul>
  );
}

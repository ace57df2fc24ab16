import { memo } from 'react';
import { clockTime } from '../eventRows';
import { formatMs } from '../reduce';
import type { ViewLoop, ViewStep } from '../view/merge';

/** The run's top-level steps, a row each: status, time, tokens (a loop's items are in its own section). */
export const StepRows = memo(function StepRows({ steps, loops }: { steps: Record<string, ViewStep>; loops: Record<string, ViewLoop> }) {
  const rows = Object.entries(steps);
  if (!rows.length) return <p className="muted small">No step has started yet.</p>;
  return (
    <table className="table compact big-steps" data-testid="big-steps">
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">Kind</th>
          <th scope="col">Status</th>
          <th scope="col">Time</th>
          <th scope="col">Tokens</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([id, step]) => {
          // A loop's own step counts no tokens: its iterations' turns do.
          const tokens = step.tokens || loops[id]?.tokens || 0;
          return (
            <tr key={id} data-testid="big-step" data-step={id} data-status={step.status}>
              <td className="mono">
                {id}
                {step.agent && <span className="muted"> · {step.agent}</span>}
                {step.error && <div className="field-problem error">{step.error}</div>}
              </td>
              <td>{step.kind}</td>
              <td>
                <span className={`status status-${step.status}`}>{step.status}</span>
              </td>
              <td>{step.duration_ms !== null ? formatMs(step.duration_ms) : step.started ? `since ${clockTime(step.started)}` : '—'}</td>
              <td>{tokens ? tokens.toLocaleString() : '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
});

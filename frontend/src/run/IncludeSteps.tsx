import { innerStepRows } from './includeSteps';
import type { StepRun } from './reduce';

const CONTENT_CHARS = 160;

/** An include step's inner steps from its result (`result.innerSteps`), one row per included step. */
export function IncludeSteps({ stepKey, run }: { stepKey: string; run: StepRun }) {
  const rows = innerStepRows(run.result);
  if (!rows.length) return null;
  return (
    <details className="foreach-results" open data-testid={`include-steps-${stepKey}`}>
      <summary className="small">
        Included steps: {rows.length} (<code>steps.{stepKey}.result.innerSteps</code>)
      </summary>
      <table className="small">
        <thead>
          <tr>
            <th scope="col">id</th>
            <th scope="col">status</th>
            <th scope="col">content</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="include-step-row">
              <td className="mono">{row.id}</td>
              <td>{row.status}</td>
              <td title={row.content}>{row.content.length > CONTENT_CHARS ? `${row.content.slice(0, CONTENT_CHARS)}…` : row.content}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

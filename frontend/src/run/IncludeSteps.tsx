import { innerStepRows } from './includeSteps';
import type { StepRun } from './reduce';
import { ResultTable } from './ResultTable';

/** An include step's inner steps from its result (`result.innerSteps`), one row per included step. */
export function IncludeSteps({ stepKey, run }: { stepKey: string; run: StepRun }) {
  const rows = innerStepRows(run.result);
  if (!rows.length) return null;
  return (
    <ResultTable
      open
      testId={`include-steps-${stepKey}`}
      rowTestId="include-step-row"
      summary={
        <>
          Included steps: {rows.length} (<code>steps.{stepKey}.result.innerSteps</code>)
        </>
      }
      columns={['id', 'status', 'content']}
      rows={rows.map((row) => ({
        key: row.id,
        content: row.content,
        cells: [
          <td key="id" className="mono">
            {row.id}
          </td>,
          <td key="status">{row.status}</td>,
        ],
      }))}
    />
  );
}

import { useMemo } from 'react';
import { useEditor } from '../store/context';
import { Pre } from './Pre';
import type { StepRun } from './reduce';
import { ToolCallList } from './ToolCallList';
import { turnsOfStep } from './toolCalls';
import { ForkButton } from './fork/ForkButton';

/** One step's run: status, who ran it, output, the tools it called, result and the prompt it saw. */
export function StepDetails({ title, run }: { title: string; run: StepRun }) {
  const tools = useEditor((s) => s.runState.tools);
  const turns = useMemo(() => turnsOfStep(tools, run.stepId), [tools, run.stepId]);
  return (
    <div className="step-details">
      <h4 className="side-title">
        {title} <span className={`status status-${run.status}`}>{run.status}</span>{' '}
        <ForkButton at={{ step: run.stepId ?? title }} />
      </h4>
      <div className="muted small">
        {[run.agent && `agent ${run.agent}`, run.model && `model ${run.model}`, run.duration, run.tokens && `${run.tokens.total} tokens`].filter(Boolean).join(' · ')}
      </div>
      {run.error && <div className="field-problem error">{run.error}</div>}
      <details open>
        <summary>Output</summary>
        <Pre text={run.content ?? run.output} />
      </details>
      <ToolCallList turns={turns} />
      {run.result !== undefined && run.result !== null && (
        <details>
          <summary>Result</summary>
          <Pre text={JSON.stringify(run.result, null, 2)} />
        </details>
      )}
      <details>
        <summary>Prompt the agent saw</summary>
        <Pre text={run.prompt} testId="prompt" empty="No prompt recorded." />
      </details>
    </div>
  );
}

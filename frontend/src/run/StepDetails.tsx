import { useMemo } from 'react';
import { useEditor } from '../store/context';
import { Pre } from './Pre';
import { formatMs, type StepRun } from './reduce';
import { ToolCallList } from './ToolCallList';
import { ReasoningNotes } from './ReasoningNotes';
import { turnsOfStep } from './toolCalls';
import { ForkButton } from './fork/ForkButton';
import { clockTime } from './eventRows';
import { PinButton } from './debug/PinButton';
import { PlaygroundButton } from './debug/PlaygroundDialog';

/** One step's run: status, who ran it, output, the tools it called, result and the prompt it saw. */
export function StepDetails({ title, run, forkable = true }: { title: string; run: StepRun; forkable?: boolean }) {
  const tools = useEditor((s) => s.runState.tools);
  const turns = useMemo(() => turnsOfStep(tools, run.stepId), [tools, run.stepId]);
  return (
    <div className="step-details">
      <h4 className="side-title">
        {title} <span className={`status status-${run.status}`}>{run.status}</span>{' '}
        {forkable && <ForkButton at={{ step: run.stepId ?? title }} />}
        {run.pinned && (
          <span className="pin-mark" title="A pinned output answered it: its model was not called" data-testid="step-pinned">
            pinned
          </span>
        )}
      </h4>
      {run.stepId && run.prompt !== undefined && (run.status === 'completed' || run.status === 'failed') && (
        <div className="step-debug">
          {run.status === 'completed' && <PinButton stepId={run.stepId} />}
          <PlaygroundButton stepId={run.stepId} />
        </div>
      )}
      <div className="muted small">
        {[run.agent && `agent ${run.agent}`, run.model && `model ${run.model}`, run.duration, run.tokens && `${run.tokens.total} tokens`].filter(Boolean).join(' · ')}
      </div>
      {run.resumed && run.startedAt && (
        <div className="muted small" data-testid="step-resumed">
          went on after the run resumed (first started {clockTime(run.startedAt)});{' '}
          {run.carriedMs !== undefined
            ? `its time counts the ${formatMs(run.carriedMs)} it had worked before, not the time no worker ran it`
            : 'its time counts from its first start'}
        </div>
      )}
      {run.error && <div className="field-problem error">{run.error}</div>}
      <details open>
        <summary>Output</summary>
        <Pre text={run.content ?? run.output} />
      </details>
      <ReasoningNotes notes={run.reasoning} />
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

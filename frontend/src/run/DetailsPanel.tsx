import { useEditor } from '../store/context';
import { useIterationSources } from '../store/useIterationSources';
import { ordinal } from './labels';
import { LoopOutput } from './LoopOutput';
import { iterationId, sourceWords } from './loopOutput';
import { Pre } from './Pre';
import { IncludeSteps } from './IncludeSteps';
import { formatMs } from './reduce';
import { StepDetails } from './StepDetails';
import { VerdictList } from './VerdictList';
import { ForkButton } from './fork/ForkButton';

/** The chosen loop iteration, or the chosen step: output, result, prompt, verdicts. */
export function DetailsPanel() {
  const selection = useEditor((s) => s.selection);
  const focus = useEditor((s) => s.iterationFocus);
  const steps = useEditor((s) => s.runState.steps);
  const loops = useEditor((s) => s.runState.loops);
  const iteration = focus ? loops[focus.loop]?.iterations.find((it) => it.iteration === focus.iteration) : undefined;
  const iterationSources = useIterationSources(focus?.loop ?? '');
  if (iteration && focus) {
    return (
      <div data-testid="iteration-details">
        <h4 className="side-title">
          {focus.loop} · iteration {ordinal(iteration.iteration)} <span className="mono muted small" title="The id the format gives this iteration">{iterationId(focus.loop, iteration)}</span>{' '}
          <span className={`status status-${iteration.status}`}>{iteration.status}</span>{' '}
          {!focus.loop.includes('/') && (
            <ForkButton at={{ step: focus.loop, iteration: iteration.iteration }} testId={`fork-iteration-${focus.loop}.${iteration.iteration}`} />
          )}
        </h4>
        <div className="muted small">{formatMs(iteration.durationMs)}</div>
        {iteration.item !== undefined && (
          <>
            <div className="muted small">Item</div>
            <Pre text={JSON.stringify(iteration.item, null, 2)} />
          </>
        )}
        {iteration.verdict && <VerdictList loop={focus.loop} iterations={[iteration]} />}
        <div className="muted small" data-testid="iteration-output-label">
          Iteration output{sourceWords(iterationSources)}
        </div>
        <Pre text={iteration.content} />
        {Object.entries(iteration.steps).map(([id, run]) => (
          <StepDetails key={id} title={id || focus.loop} run={run} />
        ))}
      </div>
    );
  }
  if (selection?.kind === 'step') {
    const run = steps[selection.key];
    const loop = loops[selection.key];
    return (
      <div>
        {run ? <StepDetails title={selection.key} run={run} /> : <p className="muted">“{selection.key}” has not started.</p>}
        {run && <IncludeSteps stepKey={selection.key} run={run} />}
        {loop && (
          <>
            <VerdictList loop={selection.key} iterations={loop.iterations} />
            <LoopOutput loopKey={selection.key} loop={loop} testId={`loop-output-${selection.key}`} />
          </>
        )}
      </div>
    );
  }
  return <p className="muted">Click a step, or a cell of a loop’s iteration strip, to see its output, result and prompt.</p>;
}

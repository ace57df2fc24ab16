import { useEditor } from '../store/context';
import { useIterationSources } from '../store/useIterationSources';
import { iterationKind, iterationName, resumeWords } from './labels';
import { useResumed } from './ResumedNote';
import { LoopOutput } from './LoopOutput';
import { iterationId, sourceWords } from './loopOutput';
import { Pre } from './Pre';
import { IncludeSteps } from './IncludeSteps';
import { formatMs } from './reduce';
import { StepDetails } from './StepDetails';
import { VerdictList } from './VerdictList';
import { IterationRows } from './IterationRows';
import { ForkButton } from './fork/ForkButton';

/** The chosen loop iteration, or the chosen step: output, result, prompt, verdicts. */
export function DetailsPanel() {
  const selection = useEditor((s) => s.selection);
  const focus = useEditor((s) => s.iterationFocus);
  const steps = useEditor((s) => s.runState.steps);
  const loops = useEditor((s) => s.runState.loops);
  const iteration = focus ? loops[focus.loop]?.iterations.find((it) => it.iteration === focus.iteration) : undefined;
  const kind = iterationKind(focus ? (loops[focus.loop]?.loopType ?? (iteration?.item !== undefined ? 'forEach' : undefined)) : undefined);
  const iterationSources = useIterationSources(focus?.loop ?? '');
  if (iteration && focus) {
    return (
      <div data-testid="iteration-details">
        <h4 className="side-title" data-testid="iteration-details-title">
          {focus.loop} · {iterationName(kind, iteration.iteration)}{' '}
          <span className="mono muted small" title="The id the format gives this iteration (counted from 0)">
            {iterationId(focus.loop, iteration)}
          </span>{' '}
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
        {iteration.verdict && <VerdictList loop={focus.loop} iterations={[iteration]} forkable={false} />}
        <div className="muted small" data-testid="iteration-output-label">
          Iteration output{sourceWords(iterationSources)}
        </div>
        <Pre text={iteration.content} />
        {Object.entries(iteration.steps).map(([id, run]) => (
          <StepDetails key={id} title={id || focus.loop} run={run} forkable={false} />
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
            <IterationRows loop={selection.key} kind={iterationKind(loop.loopType)} iterations={loop.iterations} />
            <LoopOutput loopKey={selection.key} loop={loop} testId={`loop-output-${selection.key}`} />
          </>
        )}
      </div>
    );
  }
  return (
    <>
      <RunResumed />
      <p className="muted">Click a step, or a cell of a loop’s iteration strip, to see its output, result and prompt.</p>
    </>
  );
}

/** The run's resume, when it had one, said first in Details: why, after what, which attempt, and what it means. */
function RunResumed() {
  const run = useEditor((s) => s.run);
  const info = useResumed(run);
  if (!info) return null;
  return (
    <div className="banner banner-info" data-testid="details-resumed">
      This run {resumeWords(info)}. Nothing finished before that point ran again; the events its lost attempt wrote after it
      are kept in Events, marked superseded, and steps that went on count their time from their first start.
    </div>
  );
}

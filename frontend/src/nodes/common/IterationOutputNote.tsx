import { isObject, type Step } from '../../doc/types';
import { useIterationSources } from '../../store/useIterationSources';

/** Which inner step's output each iteration hands on (the server's rule), and how to change it. */
export function IterationOutputNote({ loopKey, step, cumulative }: { loopKey: string; step: Step; cumulative: boolean }) {
  const sources = useIterationSources(loopKey);
  const inner = isObject(step.loop) && Array.isArray(step.loop.steps) && step.loop.steps.length > 0;
  return (
    <div className="insp-note" data-testid="iteration-output-note">
      <p className="small">
        <strong>Iteration output:</strong>{' '}
        {inner ? (
          sources.length > 0 ? (
            <>
              the output of <code>{sources[0]}</code>, the last inner step as written (or, when it fails, the
              last one before it that completed). To hand on another step’s output, move it last.
            </>
          ) : (
            'checking…'
          )
        ) : (
          'the loop step’s own reply.'
        )}{' '}
        {cumulative
          ? 'The loop’s output (cumulative) holds every inner step’s output of every round, headed “## Iteration N” and “### step”, with the judge’s feedback, as zenflow’s runner writes it.'
          : 'The loop’s output is the last iteration’s.'}
      </p>
    </div>
  );
}

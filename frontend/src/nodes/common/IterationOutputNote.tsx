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
              the output of{' '}
              {sources.map((id, i) => (
                <span key={id}>
                  {i > 0 && ' + '}
                  <code>{id}</code>
                </span>
              ))}
              , the inner step{sources.length === 1 ? '' : 's'} no other inner step depends on.
              {' '}To hand on another step’s output, make it the last: let it depend on the others (e.g. critic → draft).
            </>
          ) : (
            'checking…'
          )
        ) : (
          'the loop step’s own reply.'
        )}{' '}
        {cumulative ? 'The loop’s output joins every iteration’s output (cumulative).' : 'The loop’s output is the last iteration’s.'}
      </p>
    </div>
  );
}

import { useIterationSources } from '../../store/useIterationSources';
import { Chip } from './parts';

/** What a loop hands on: the mode, and for inner steps the step(s) each iteration's output comes from. */
export function OutputChip({ loopKey, mode }: { loopKey: string; mode: string }) {
  const sources = useIterationSources(loopKey);
  const from = sources.length > 0 ? ` of ${sources.join(' + ')}` : '';
  const title =
    sources.length > 0
      ? `Each iteration's output is the output of ${sources.join(' and ')} (the inner step${sources.length === 1 ? '' : 's'} no other inner step depends on). ` +
        (mode === 'cumulative' ? 'The loop joins every iteration’s output.' : 'The loop hands on the last iteration’s output.')
      : mode === 'cumulative'
        ? 'The loop joins every iteration’s output.'
        : 'The loop hands on the last iteration’s output.';
  return (
    <span data-testid={`iteration-output-${loopKey}`}>
      <Chip label="output" value={`${mode}${from}`} title={title} />
    </span>
  );
}

import { useIterationSources } from '../../store/useIterationSources';
import { Chip } from './parts';

/** What a loop hands on: the mode, and for inner steps the step(s) each iteration's output comes from. */
export function OutputChip({ loopKey, mode }: { loopKey: string; mode: string }) {
  const sources = useIterationSources(loopKey);
  const from = mode === 'cumulative' ? ', every step' : sources.length > 0 ? ` of ${sources[0]}` : '';
  const handsOn =
    mode === 'cumulative'
      ? 'The loop hands on every inner step’s output of every round, labelled by round and step.'
      : 'The loop hands on the last iteration’s output.';
  const title = sources.length > 0 ? `Each iteration's output is ${sources[0]}'s (the last inner step as written). ${handsOn}` : handsOn;
  return (
    <span data-testid={`iteration-output-${loopKey}`}>
      <Chip label="output" value={`${mode}${from}`} title={title} />
    </span>
  );
}

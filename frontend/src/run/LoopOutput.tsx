import { isObject } from '../doc/types';
import { locate } from '../doc/keys';
import { useEditor } from '../store/context';
import { useIterationSources } from '../store/useIterationSources';
import { loopOutput, sourceWords } from './loopOutput';
import { Pre } from './Pre';
import type { LoopRun } from './reduce';

/** The loop's `outputMode` in the document: cumulative, or last (the default). */
function useOutputMode(key: string): 'cumulative' | 'last' {
  return useEditor((s) => {
    const found = locate(s.doc, key);
    const loop = found && isObject(found.step.loop) ? found.step.loop : null;
    return loop && loop.outputMode === 'cumulative' ? 'cumulative' : 'last';
  });
}

/** What the loop hands on so far, labelled with its mode and source step(s). */
export function LoopOutput({ loopKey, loop, testId }: { loopKey: string; loop: LoopRun; testId?: string }) {
  const mode = useOutputMode(loopKey);
  const sources = useIterationSources(loopKey);
  const from = sourceWords(sources);
  return (
    <>
      <div className="muted small" data-testid="loop-output-label">
        {loop.loopType === 'forEach'
          ? `Loop output${from}: the last item that completed (every item is in its result)`
          : mode === 'cumulative'
            ? 'Cumulative output: every inner step of every finished iteration, by round and step'
            : `Loop output${from}: the latest finished iteration`}
      </div>
      <Pre text={loopOutput(loop, mode)} testId={testId} empty="Nothing yet: appears as iterations finish." />
    </>
  );
}

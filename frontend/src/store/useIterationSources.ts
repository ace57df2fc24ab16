import { pointerOfKey } from '../doc/pointer';
import { useEditor } from './context';

const NO_SOURCES: readonly string[] = Object.freeze([]);

/** The inner steps whose output is each iteration's output, as the server computed them (empty for a single-step loop). */
export function useIterationSources(loopKey: string): readonly string[] {
  return useEditor((s) => {
    const at = pointerOfKey(s.doc, loopKey);
    return (at && s.iterationOutputs[at]) || NO_SOURCES;
  });
}

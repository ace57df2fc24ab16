import { useEditor } from '../store/context';
import { shownStatus } from './labels';

/** The status and reason the run view shows: `workflow_end` at once, a final record when it comes. */
export function useShownStatus(): { status: string | undefined; reason: string | null } {
  const run = useEditor((s) => s.run);
  const end = useEditor((s) => s.runState.end);
  return shownStatus(run, { end });
}

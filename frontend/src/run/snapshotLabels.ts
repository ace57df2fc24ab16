// A workspace snapshot's label in words. Labels are "start", "end", or the namespaced step id
// the snapshot follows (runtime/contract.py): "build", "refine.2" (iteration 2 of loop refine),
// "batch[3]" (forEach item 3), "refine.2.draft" (step draft in that iteration). As everywhere on
// screen (labels.ts, ordinal), iterations and items count from 1: "refine.2" is the 3rd iteration.
import type { WorkspaceSnapshot } from '../api/types';
import { ordinal } from './labels';

/** "refine.2" → loop refine, iteration 2; "batch[3].deploy" → loop batch, item 3, then "deploy". */
const LOOP_PART = /^(.+?)(?:\.(\d+)|\[(\d+)\])(?:\.(.+))?$/;

function loopWords(loop: string, iteration: string | undefined, item: string | undefined): string {
  return iteration !== undefined ? `${loop} iteration ${ordinal(Number(iteration))}` : `${loop} item ${ordinal(Number(item))}`;
}

/** Where a namespaced step id is, in words: "step build", "refine iteration 3", "step draft of refine iteration 3". */
export function placeWords(stepId: string): string {
  const m = LOOP_PART.exec(stepId);
  if (!m) return `step ${stepId}`;
  const [, loop, iteration, item, inner] = m;
  const where = loopWords(loop, iteration, item);
  return inner ? `${placeWords(inner)} of ${where}` : where;
}

/** The snapshot's moment: "start", "end", "after step build", "after refine iteration 3". */
export function snapshotWords(s: Pick<WorkspaceSnapshot, 'label' | 'step_id'>): string {
  if (!s.step_id && (s.label === 'start' || s.label === 'end')) return s.label;
  return `after ${placeWords(s.label || s.step_id || '')}`;
}

/** "+2 ~1 −0": files added, modified and removed since the snapshot before. */
export function changeCounts(s: Pick<WorkspaceSnapshot, 'added' | 'modified' | 'removed'>): { added: string; modified: string; removed: string } {
  return { added: `+${s.added}`, modified: `~${s.modified}`, removed: `-${s.removed}` };
}

/** Which copy of the workspace: null for the run's own, else the step's own copy (isolation: step). */
export function copyWords(workspace: string): string | null {
  return !workspace || workspace === 'run' ? null : `${workspace}’s own copy`;
}

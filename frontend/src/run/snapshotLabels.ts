// A workspace snapshot's label in words. Labels are "start", "end", or the namespaced step id
// the snapshot follows (runtime/contract.py): "build", "refine.2" (iteration 2 of loop refine),
// "batch[3]" (forEach item 3), "refine.2.draft" (step draft in that iteration). As everywhere on
// screen (labels.ts, the numbering rule), rounds and items count from 1: "refine.2" is round 3.
import type { WorkspaceSnapshot } from '../api/types';
import { idWords, inLoop } from './labels';

/** Where a namespaced step id is, in words (labels.ts, `idWords`): "step build", "round 3 of refine". */
export const placeWords = idWords;

/** A step inside a loop's round or item in words, or null for a step outside loops: "step draft of round 3 of write". */
export function loopPlaceWords(stepId: string): string | null {
  return inLoop(stepId) ? idWords(stepId) : null;
}

/** The snapshot's moment: "start", "end", "after step build", "after round 3 of refine". */
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

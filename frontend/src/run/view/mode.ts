// Which run page to draw. The normal page receives every event and folds it in
// the browser; past a few hundred loop items or twenty thousand events that
// freezes the tab, so big runs get a page drawn from the server's view alone.
import type { View } from './merge';

/** A loop with more items or rounds than this is drawn as a grid from the view. */
export const BIG_LOOP = 500;
/** A run with more events than this is too many to fold in the browser. */
export const BIG_SEQ = 20_000;

export type RunMode = 'loading' | 'normal' | 'big';

/** The view is of a run too big for the normal page. */
export function isBigView(view: View): boolean {
  if (view.seq > BIG_SEQ) return true;
  for (const [id, loop] of Object.entries(view.loops)) {
    if ((loop.total ?? 0) > BIG_LOOP) return true;
    // A loop whose size was not announced (nested in another's iteration) shows it by its letters.
    if ((view.items[id]?.length ?? 0) > BIG_LOOP) return true;
  }
  return false;
}

/**
 * The page to draw now, given the one drawn so far. Nothing is decided before the first view
 * (unless the view socket cannot be had: then the normal page, which has its own fallbacks).
 * A run can turn big while watched (a forEach over a list computed at run time), never small again.
 */
export function runMode(view: View | null, previous: RunMode, unavailable = false): RunMode {
  if (previous === 'big') return 'big';
  if (view && isBigView(view)) return 'big';
  if (previous === 'normal' || view || unavailable) return 'normal';
  return 'loading';
}

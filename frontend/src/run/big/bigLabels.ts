// How the view's figures read on the big-run page: item letters as status
// words, a loop's counts, the status the header shows.
import type { Run } from '../../api/types';
import { plural, shownStatus } from '../labels';
import type { RunEndStatus } from '../reduce';
import type { ViewLoop, ViewRun } from '../view/merge';
import { isTerminal } from '../socket';

export type ItemStatus = 'queued' | 'running' | 'completed' | 'failed' | 'skipped' | 'cancelled';

/** Every item status, in the order the legend lists them. */
export const ITEM_STATUSES: ItemStatus[] = ['completed', 'failed', 'running', 'queued', 'skipped', 'cancelled'];

const BY_LETTER: Record<string, ItemStatus> = { '.': 'queued', r: 'running', c: 'completed', f: 'failed', s: 'skipped', x: 'cancelled' };

/** The status an item letter stands for (an unknown letter: queued). */
export function letterStatus(letter: string | undefined): ItemStatus {
  return (letter && BY_LETTER[letter]) || 'queued';
}

export interface LoopCounts extends Record<ItemStatus, number> {
  /** Items or rounds in all. */
  total: number;
  /** Finished, whatever the outcome. */
  done: number;
}

/** A loop's items by status: finished ones from the view's counts, running from its count, the rest queued. */
export function loopCounts(loop: ViewLoop, letters: number): LoopCounts {
  const c = loop.counts;
  const completed = c.completed ?? 0;
  const failed = c.failed ?? 0;
  const skipped = c.skipped ?? 0;
  const cancelled = c.cancelled ?? 0;
  // Any other final status the engine may report still counts as done.
  const done = Object.values(c).reduce((a, b) => a + b, 0);
  const total = Math.max(loop.total ?? 0, letters, done + loop.running_count);
  const running = loop.running_count;
  return { completed, failed, skipped, cancelled, running, queued: Math.max(0, total - done - running), total, done };
}

/** A status in words: items still queued when the run has ended will never run, and say so. */
export function statusWord(status: ItemStatus, ended = false): string {
  return ended && status === 'queued' ? 'not run' : status;
}

/** "20,000 items: 1,204 completed, 3 failed, 8 running, 16,785 queued" (statuses with none left out; "not run" once ended). */
export function countsText(counts: LoopCounts, word = 'item', ended = false): string {
  const parts = ITEM_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s].toLocaleString()} ${statusWord(s, ended)}`);
  return `${plural(counts.total, word)}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** The status the page shows: a final record wins, then how the view says the run ended, then the record. */
export function bigStatus(run: Run | null, viewRun: ViewRun | null): { status: string | undefined; reason: string | null } {
  const end = viewRun && isTerminal(viewRun.status) ? { status: viewRun.status as RunEndStatus, reason: viewRun.reason || null } : null;
  if (!run && !end) return { status: viewRun?.status, reason: viewRun?.reason || null };
  return shownStatus(run, { end });
}

/** Items or rounds that failed in every loop of the run: a run the skip policy carried past them still says so at the top. */
export function failedItemCount(loops: Record<string, Pick<ViewLoop, 'counts'>>): number {
  return Object.values(loops).reduce((n, l) => n + (l.counts.failed ?? 0), 0);
}

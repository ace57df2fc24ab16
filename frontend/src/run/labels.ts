// How run facts read on screen. Data stays as the engine sends it (0-based
// iterations, break_reason names); only the words shown change here.
import { FINAL_RUN_STATUSES } from '../api/events.gen';
import type { Run } from '../api/types';
import type { RunState } from './reduce';

const TERMINAL = new Set<string>(FINAL_RUN_STATUSES);

/** Run ids are UUIDs: the first block is enough to tell runs apart on screen. */
export function shortId(id: string): string {
  return /^[0-9a-f]{8}-/i.test(id) ? `#${id.slice(0, 8)}` : `#${id}`;
}

/** Iterations and rounds are 0-based in the data and 1-based on screen, like the prompt ("iteration 1 of at most 5"). */
export function ordinal(n: number): number {
  return n + 1;
}

/** "1 iteration", "3 iterations". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? word : many}`;
}

/** The engine's loop `break_reason` values (runtime/engine/loops.py) in plain words; unknown values as they are. */
const BREAK_REASONS: Record<string, string> = {
  items_exhausted: 'all items done',
  until: 'until condition met',
  judge: 'judge said done',
  untilAgent: 'judge said done',
  max_iterations: 'reached max iterations',
  policy: 'a run policy stopped it',
  failed: 'an iteration failed',
  stopped: 'stopped by request',
};

export function breakReasonLabel(reason: string | null | undefined): string {
  if (!reason) return 'ended';
  return Object.prototype.hasOwnProperty.call(BREAK_REASONS, reason) ? BREAK_REASONS[reason] : reason;
}

/**
 * The status the run view shows: a final run record wins; before it arrives,
 * `workflow_end` already tells how the run ended; otherwise the latest record.
 */
export function shownStatus(run: Pick<Run, 'status' | 'reason'> | null, state: Pick<RunState, 'end'>): { status: string | undefined; reason: string | null } {
  // The record's `reason` is '' when it has none (never null): an empty one says nothing.
  if (run && TERMINAL.has(run.status)) return { status: run.status, reason: run.reason || state.end?.reason || null };
  if (state.end) return { status: state.end.status, reason: state.end.reason || run?.reason || null };
  return { status: run?.status, reason: run?.reason || null };
}

/** Time a run spent paused: since when it is paused (null while it is not), and how long its ended pauses lasted, in ms. */
export interface PausedTime {
  at: number | null;
  total: number;
}

/**
 * The paused time the header clock leaves out. The run record's `paused_at` and
 * `paused_ms` win when the server keeps them: they know of pauses from before the
 * page was opened. Without them (an older server), what this view saw.
 */
export function pausedTime(run: Pick<Run, 'paused_at' | 'paused_ms'> | null, seen: PausedTime): PausedTime {
  if (!run || typeof run.paused_ms !== 'number') return seen;
  const at = run.paused_at ? Date.parse(run.paused_at) : NaN;
  return { at: Number.isFinite(at) ? at : null, total: run.paused_ms };
}

/**
 * Elapsed time at work in ms for the header clock: to the end when finished,
 * frozen while paused (`pausedAt`), less the time spent paused before (so the
 * clock neither runs on during a pause nor jumps when the run ends).
 */
export function elapsedMs(
  startedAt: number | null,
  finishedAt: number | null,
  now: number,
  pausedAt: number | null,
  pausedTotal: number,
): number | null {
  if (startedAt === null) return null;
  const end = finishedAt ?? pausedAt ?? now;
  return Math.max(0, end - startedAt - pausedTotal);
}

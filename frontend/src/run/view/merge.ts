// The run's view (runtime/live/view/state.py): what the big-run page draws, kept by
// the server and streamed over `ws/runs/<id>/view/` as one snapshot and then
// patches. Its size follows the run's shape, not its length, so the browser
// never holds every event. The merge is the server's own rule (RunView.merge).
// The types below are written by hand beside the server's TypedDicts (state.py, mail.py);
// tests/house/test_view_types_match_the_server.py fails when a field differs.
import type { Run, Tokens } from '../../api/types';

/** One status letter per forEach item or repeat-until round. */
export type ItemLetter = '.' | 'r' | 'c' | 'f' | 's' | 'x';

export const QUEUED: ItemLetter = '.';

export interface ViewRun {
  status: string;
  /** The server's totals: the engine's own numbers once the run has ended. */
  tokens: Tokens;
  cost_usd: number | null;
  started: string | null;
  ended: string | null;
  reason: string;
  total_steps: number | null;
  paused: boolean;
  tools_running: number;
}

/** A top-level step (steps inside loop iterations are counted in their loop). */
export interface ViewStep {
  status: string;
  kind: 'agent' | 'loop' | 'include';
  started: string | null;
  ended: string | null;
  duration_ms: number | null;
  /** Total tokens. */
  tokens: number;
  error: string | null;
  agent: string | null;
  attempts?: number | null;
}

export interface LoopFailure {
  index: number;
  status: string;
  duration_ms: number | null;
  error: string | null;
}

export interface LoopFinish {
  index: number;
  status: string;
  duration_ms: number | null;
}

export interface LoopVerdict {
  iteration: number | null;
  done: boolean | null;
  reason: string | null;
  failed_open: boolean;
}

export interface ViewLoop {
  id: string;
  type: 'forEach' | 'repeat-until' | '';
  /** forEach: the number of items; repeat-until: its max iterations; null when not known. */
  total: number | null;
  /** Finished items or rounds by final status. */
  counts: Record<string, number>;
  tokens: number;
  started: string | null;
  ended: string | null;
  /** The first 100 running indices; running_count has them all. */
  running: number[];
  running_count: number;
  /** The first 100 failures. */
  failed: LoopFailure[];
  /** The last 10 finished. */
  recent: LoopFinish[];
  /** The last 500 judge verdicts. */
  verdicts: LoopVerdict[];
  /** The tail (64 kB) of what the loop hands on. */
  output: string;
  output_truncated: boolean;
  rounds_completed: number | null;
  break_reason: string | null;
}

/** [count, sum, min, max] of a bucket's values. */
export type BucketStat = [count: number, sum: number, min: number, max: number];

/** Consecutive rounds of a loop, folded (runtime/live/view/rounds.py). */
export interface RoundBucket {
  /** Finished rounds, each counted once by its last status. */
  n: number;
  status: Record<string, number>;
  /** The judge's verdicts: done, not_done, failed_open. */
  verdicts?: Record<string, number>;
  /** Durations in ms. */
  time?: BucketStat;
  tokens: number;
  /** Absent while no turn had a price. */
  cost?: number;
  /** By field index (into ViewRounds.fields). */
  fields?: Record<string, BucketStat>;
}

export interface RoundField {
  source: 'result' | 'judge';
  path: string[];
}

/** A loop's rounds for its chart: bucket `b` holds rounds b*width to (b+1)*width - 1, at most 500 buckets. */
export interface ViewRounds {
  width: number;
  /** The highest round seen, plus one. */
  span: number;
  fields: RoundField[];
  /** By bucket number. */
  buckets: Record<string, RoundBucket>;
}

export interface RoundsPatch extends ViewRounds {
  /** Every bucket (the width changed, or the loop started over); else only the touched ones. */
  full: boolean;
}

/** A message as the big-run page lists it (runtime/live/view/mail.py); its text cut to 300 characters. */
export interface ViewMailMessage {
  id: string;
  sender: string;
  to: string;
  kind: string;
  text: string;
  state: 'queued' | 'drained' | 'dropped';
  reason: string | null;
  at: string | null;
}

/** A run's messages, coalesced: counts, the last 10 messages, the last 5 narrations, the synthesis. */
export interface ViewMail {
  counts: { sent: number; forwarded: number; drained: number; dropped: number };
  /** Dropped messages by reason. */
  dropped: Record<string, number>;
  recent: ViewMailMessage[];
  narration: { text: string; at: string | null }[];
  synthesis: string | null;
  warning: string | null;
}

export interface View {
  seq: number;
  run: ViewRun;
  steps: Record<string, ViewStep>;
  loops: Record<string, ViewLoop>;
  /** By loop id: one ItemLetter per item or round. */
  items: Record<string, string>;
  /** By loop id; absent in views stored before the chart existed. */
  rounds?: Record<string, ViewRounds>;
  /** Absent in views stored before messages existed. */
  mail?: ViewMail;
}

export interface ViewPatch {
  seq: number;
  run?: ViewRun;
  steps?: Record<string, ViewStep>;
  loops?: Record<string, ViewLoop>;
  /** Whole strings (a loop that started over). */
  items_full?: Record<string, string>;
  /** By loop id: [index, letter] pairs. */
  items?: Record<string, [number, string][]>;
  rounds?: Record<string, RoundsPatch>;
  /** The whole of it, when it changed (it is small). */
  mail?: ViewMail;
}

export type ViewMessage = { kind: 'run'; run: Run } | { kind: 'view'; view: View } | ({ kind: 'patch' } & ViewPatch);

/** `letters` with each change set, padded with queued items when an index lies past its end. */
export function setLetters(letters: string, changes: readonly (readonly [number, string])[]): string {
  if (!changes.length) return letters;
  const out = letters.split('');
  for (const [index, letter] of changes) {
    if (!Number.isInteger(index) || index < 0) continue;
    while (out.length < index) out.push(QUEUED);
    out[index] = letter;
  }
  return out.join('');
}

/**
 * The view after a patch, as a new object. Only what the patch names is copied: unchanged steps,
 * loops and item strings keep their identity, so what draws them can tell they did not change.
 */
export function mergePatch(view: View, patch: ViewPatch): View {
  const next: View = { ...view, seq: patch.seq };
  if (patch.run) next.run = patch.run;
  if (patch.steps) next.steps = { ...view.steps, ...patch.steps };
  if (patch.loops) next.loops = { ...view.loops, ...patch.loops };
  if (patch.items_full || patch.items) {
    const items = { ...view.items, ...patch.items_full };
    for (const [loop, changes] of Object.entries(patch.items ?? {})) items[loop] = setLetters(items[loop] ?? '', changes);
    next.items = items;
  }
  if (patch.mail) next.mail = patch.mail;
  if (patch.rounds) {
    const rounds = { ...view.rounds };
    for (const [loop, p] of Object.entries(patch.rounds)) rounds[loop] = mergeRounds(rounds[loop], p);
    next.rounds = rounds;
  }
  return next;
}

/** A loop's rounds after a patch (the server's rule: RoundBuckets.merge_patch). */
export function mergeRounds(held: ViewRounds | undefined, patch: RoundsPatch): ViewRounds {
  const { full, ...rest } = patch;
  if (full || !held) return rest;
  return { ...rest, buckets: { ...held.buckets, ...patch.buckets } };
}

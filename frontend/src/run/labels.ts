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

// The one numbering rule (docs/format.md, "Numbering"). Events, ids and API fields count a loop's rounds
// and items from 0, as the format writes ids (`write.2`, `each[4301]`); people read them counted from 1, in
// one word per loop kind: a repeat-until has rounds, a forEach has items ("round 3", "item 4302"). Where an
// id is shown, it is the format's, beside the words, never renumbered. Every label of a run goes through here.

/** Iterations and rounds are 0-based in the data and 1-based on screen, like the prompt ("iteration 1 of at most 5"). */
export function ordinal(n: number): number {
  return n + 1;
}

/** What one pass of a loop is called: a repeat-until's round, a forEach's item. */
export type IterationKind = 'round' | 'item';

/** The kind of a loop's iterations, from its `loop_type` (or anything that says forEach). */
export function iterationKind(loopType: string | null | undefined): IterationKind {
  return loopType === 'forEach' || loopType === 'item' ? 'item' : 'round';
}

/** "round 3", "item 4302" for the 0-based 2 and 4301. */
export function iterationName(kind: IterationKind, n: number): string {
  return `${kind} ${ordinal(n)}`;
}

/** The same with a capital, to start a heading: "Round 3", "Item 4302". */
export function iterationTitle(kind: IterationKind, n: number): string {
  const words = iterationName(kind, n);
  return words[0].toUpperCase() + words.slice(1);
}

/** The format's id of an iteration, as its events carry it: `write.2`, `each[4301]` (0-based, never renumbered). */
export function formatIterationId(loop: string, n: number, kind: IterationKind): string {
  return kind === 'item' ? `${loop}[${n}]` : `${loop}.${n}`;
}

/** Where an event's step is, as the server reads its id (`where`, runtime/contract.py). */
export interface StepWhere {
  loop?: string | null;
  iteration?: number | null;
  item?: number | null;
  inner?: string | null;
  include?: string | null;
}

/** The inner id a loop's judge runs under (`write.2.untilAgent`). */
const JUDGE = 'untilAgent';

/**
 * A step of a run in words, 1-based: "draft in round 11 of rounds", "the judge of round 3 of write",
 * "item 4302 of each", "build in deploy", "plan". Show the step's id beside it where the id matters.
 */
export function stepPlace(stepId: string, where: StepWhere | null | undefined): string {
  if (where?.loop) {
    const kind: IterationKind = typeof where.item === 'number' ? 'item' : 'round';
    const place = `${iterationName(kind, (kind === 'item' ? where.item : where.iteration) ?? 0)} of ${where.loop}`;
    if (!where.inner) return place;
    return where.inner === JUDGE ? `the judge of ${place}` : `${where.inner} in ${place}`;
  }
  if (where?.include && where.inner) return `${where.inner} in ${where.include}`;
  return stepId;
}

/** "refine.2" → loop refine, round 3; "batch[3].deploy" → loop batch, item 4, then "deploy". */
const LOOP_PART = /^(.+?)(?:\.(\d+)|\[(\d+)\])(?:\.(.+))?$/;

/** Whether a namespaced step id lies inside a loop's round or item. */
export function inLoop(stepId: string): boolean {
  return LOOP_PART.test(stepId);
}

/**
 * A step by its namespaced id alone, in words (as runtime/numbering.py `step_words` says it): "step build",
 * "round 3 of refine", "step draft of round 3 of refine", "step work of round 1 of inner of item 2 of outer".
 */
export function idWords(stepId: string): string {
  const m = LOOP_PART.exec(stepId);
  if (!m) return `step ${stepId}`;
  const [, loop, iteration, item, inner] = m;
  const where = iteration !== undefined ? `${iterationName('round', Number(iteration))} of ${loop}` : `${iterationName('item', Number(item))} of ${loop}`;
  return inner ? `${idWords(inner)} of ${where}` : where;
}

/** "1 iteration", "3 iterations". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? word : many}`;
}

/** A point of a run (a fork's or a resume's: `{step, iteration?, kind}`, iteration 0-based) in words: "round 3 of write", "item 2 of each", "step plan". */
export function pointWords(point: { step: string; iteration?: number | null; kind?: string | null } | null | undefined): string {
  if (!point) return 'its start';
  if (typeof point.iteration !== 'number' || point.kind === 'step') return idWords(point.step);
  return `${iterationName(point.kind === 'item' ? 'item' : 'round', point.iteration)} of ${point.step}`;
}

/** Why and where a run went on after losing its worker: "resumed after round 3 of write: worker lost (resume 1 of 3)". */
export function resumeWords(info: { reason: string; attempt?: number | null; of?: number | null; after: Parameters<typeof pointWords>[0] }): string {
  const count = info.attempt ? ` (resume ${info.attempt}${info.of ? ` of ${info.of}` : ''})` : '';
  return `resumed after ${pointWords(info.after)}${info.reason ? `: ${info.reason}` : ''}${count}`;
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

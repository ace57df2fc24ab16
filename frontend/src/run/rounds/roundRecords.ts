// One record per loop round (a repeat-until iteration or a forEach item), read from the run's
// reduced state: what the rounds chart plots. The judge's structured result is the verdict's when
// the state keeps it (judge_verdict `result`), else the judge's accepted submit_result call, which
// the tool log keeps for every turn of the run. Pure.
import { isObject, type Json } from '../../doc/types';
import type { IterationRun, LoopRun, RunState, StepRun, StepStatus, Verdict } from '../reduce';
import { turnsOfStep, type ToolLog } from '../toolCalls';

/** The judge's word on a round, as a category: a mark on the chart, never a number. */
export type Mark = 'pass' | 'fail' | 'error';

export interface RoundRecord {
  /** 0-based, as the engine numbers iterations and items (1-based on screen). */
  round: number;
  status: StepStatus;
  durationMs?: number;
  tokens?: number;
  costUsd?: number;
  mark?: Mark;
  /** The round's structured result: a single-step loop's own, or each inner step's by its id. */
  result?: Json;
  /** What the judge submitted for this round (its resultSchema's fields: done, reason, a score ...). */
  judge?: Json;
}

/** The judge runs as this inner step of each round (runtime/engine/agent.py, run_judge). */
const JUDGE_STEP = 'untilAgent';
const SUBMIT_RESULT = 'submit_result';

function markOf(it: IterationRun): Mark | undefined {
  const v = it.verdict;
  if (v) {
    if (v.failedOpen || v.done === null) return 'error';
    return v.done ? 'pass' : 'fail';
  }
  // A round without a judge (a forEach item, a loop with `until`) still shows when it failed.
  return it.status === 'failed' ? 'error' : undefined;
}

/** Cost per step is read when the state carries it (step_end and the judge's turns report `cost_usd`). */
function stepCost(step: StepRun): number | undefined {
  const cost = step.costUsd;
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : undefined;
}

function sumOver(steps: StepRun[], read: (s: StepRun) => number | undefined): number | undefined {
  let total: number | undefined;
  for (const s of steps) {
    const v = read(s);
    if (v !== undefined) total = (total ?? 0) + v;
  }
  return total;
}

function resultOf(it: IterationRun): Json | undefined {
  const own = it.steps[''];
  if (own && own.result !== undefined && own.result !== null) return own.result;
  const inner: Record<string, Json> = {};
  let any = false;
  for (const [id, step] of Object.entries(it.steps)) {
    if (!id || id === JUDGE_STEP || step.result === undefined || step.result === null) continue;
    inner[id] = step.result;
    any = true;
  }
  return any ? inner : undefined;
}

/** What the judge submitted for a round: the verdict's own result, or its first accepted submit_result call. */
function judgeResult(verdict: Verdict, tools: ToolLog, loopKey: string, round: number): Json | undefined {
  const own = verdict.result;
  if (isObject(own)) return own;
  // A rejected call ends with an error; the first that did not is the one the engine kept.
  for (const turn of turnsOfStep(tools, `${loopKey}.${round}.${JUDGE_STEP}`)) {
    for (const call of turn.calls) {
      if (call.name === SUBMIT_RESULT && call.state === 'done' && isObject(call.input)) return call.input;
    }
  }
  return undefined;
}

export function roundOf(loopKey: string, it: IterationRun, tools: ToolLog): RoundRecord {
  const steps = Object.values(it.steps);
  const record: RoundRecord = { round: it.iteration, status: it.status };
  if (it.durationMs !== undefined && Number.isFinite(it.durationMs)) record.durationMs = it.durationMs;
  const tokens = sumOver(steps, (s) => (typeof s.tokens?.total === 'number' ? s.tokens.total : undefined));
  if (tokens !== undefined) record.tokens = tokens;
  const cost = sumOver(steps, stepCost);
  if (cost !== undefined) record.costUsd = cost;
  const mark = markOf(it);
  if (mark) record.mark = mark;
  const result = resultOf(it);
  if (result !== undefined) record.result = result;
  const judge = it.verdict ? judgeResult(it.verdict, tools, loopKey, it.iteration) : undefined;
  if (judge !== undefined) record.judge = judge;
  return record;
}

// The reducer copies an iteration only when an event touches it, and the judge's submit_result comes
// before its verdict touches the round: a record read once stays right until its iteration changes.
const READ = new WeakMap<IterationRun, RoundRecord>();

/** Each round of a loop; live, only the rounds events touched since the last call are read again. */
export function roundsOfLoop(loopKey: string, loop: LoopRun, tools: ToolLog): RoundRecord[] {
  return loop.iterations.map((it) => {
    let record = READ.get(it);
    if (!record) {
      record = roundOf(loopKey, it, tools);
      READ.set(it, record);
    }
    return record;
  });
}

/** The run's loops in the order they appear in its state (top-level steps first seen first). */
export function loopKeys(state: Pick<RunState, 'loops'>): string[] {
  return Object.keys(state.loops);
}

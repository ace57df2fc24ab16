// Run events (docs/api.md, "Events") folded into what the canvas shows: a
// status per node, an iteration strip per loop, judge verdicts, streamed
// output and prompts. Pure; events apply once each (by seq), in seq order.
import type { RunEvent, Status, Where, WorkflowEndData } from '../api/events.gen';
import type { Tokens } from '../api/types';
import { isObject, type Json } from '../doc/types';
import { emptyToolLog, foldToolEvents, type ToolLog } from './toolCalls';

/** A step's status on the canvas: the contract's (runtime/contract.py), or 'pending' before it starts. */
export type StepStatus = 'pending' | Exclude<Status, 'queued' | 'paused'>;

export interface StepRun {
  status: StepStatus;
  /** The namespaced id it ran as (`refine.2.draft`): its tool calls are filed under it. */
  stepId?: string;
  agent?: string;
  model?: string;
  startedAt?: string;
  endedAt?: string;
  duration?: string;
  tokens?: Tokens;
  /** What its agent turns cost (step_end `cost_usd`; a judge's, its turns' summed); absent when not priced. */
  costUsd?: number;
  error?: string;
  /** Streamed output (`output` deltas), as text. */
  output: string;
  /** The prompt the agent saw (from `agent_turn` request). */
  prompt?: string;
  /** Final content, when step_end carries it. */
  content?: string;
  result?: Json;
}

export interface Verdict {
  done: boolean | null;
  reason: string | null;
  failedOpen: boolean;
  /** The judge's own words (a cumulative output carries them as its feedback on the round). */
  content?: string;
  /** What the judge submitted (its resultSchema's fields: done, reason, a score ...). */
  result?: Json;
  /** What judging this round took: the judge's tokens (the event's envelope) and their price, when known. */
  tokens?: number;
  costUsd?: number;
}

export interface IterationRun {
  iteration: number;
  status: StepStatus;
  item?: Json;
  startedAt?: string;
  endedAt?: string;
  durationMs?: number;
  content?: string;
  verdict?: Verdict;
  /** Inner steps of this iteration, by inner id ('' for a single-step loop). */
  steps: Record<string, StepRun>;
}

export interface LoopRun {
  loopType?: string;
  iterations: IterationRun[];
  /** Cumulative output as reported by the server, when it reports one. */
  cumulative?: string;
  ended?: { reason: string | null; rounds: number | null };
}

/** How a run ended, as workflow_end says it. */
export type RunEndStatus = WorkflowEndData['status'];

export interface RunState {
  lastSeq: number;
  /** How many distinct events were applied (each seq once). */
  applied: number;
  status: 'idle' | 'running' | RunEndStatus;
  /** By graph key: `plan`, `dev/review` (latest iteration of an inner step). */
  steps: Record<string, StepRun>;
  /** By loop key. */
  loops: Record<string, LoopRun>;
  /** The agent whose output streamed last, and its text so far. */
  live: { stepId: string; agent: string | null; text: string; done: boolean } | null;
  errors: string[];
  log: RunEvent[];
  tokens: Tokens;
  /** What `workflow_end` said, as soon as it arrives (before the run record catches up). */
  end: { status: RunEndStatus; reason: string | null } | null;
  /** Agents' tool calls by turn, and the calls waiting for a person. */
  tools: ToolLog;
  /** How many workspace snapshots were announced: a change means the workspace's list is out of date. */
  snapshots: number;
}

const LOG_LIMIT = 500;

export function emptyRun(): RunState {
  return {
    lastSeq: 0,
    applied: 0,
    status: 'idle',
    steps: {},
    loops: {},
    live: null,
    errors: [],
    log: [],
    tokens: { prompt: 0, completion: 0, total: 0 },
    end: null,
    tools: emptyToolLog(),
    snapshots: 0,
  };
}

export interface ParsedId {
  /** Graph key of the node the event belongs to. */
  key: string;
  /** Loop key, when the id names an iteration or an inner step. */
  loop?: string;
  iteration?: number;
  /** Inner step id within the iteration ('' = the iteration itself). */
  inner?: string;
}

/**
 * Where an event's step sits on the canvas, from the event's `where` (the server's reading of the
 * namespaced id: runtime/contract.py): `plan`, `dev/review` (inner step of loop `dev`), `dev` (the
 * iteration itself), or the include node for an included sub-workflow's steps.
 */
export function placeOf(stepId: string, where: Where | null | undefined): ParsedId {
  if (where?.loop) {
    const inner = where.inner ?? '';
    return { key: inner ? `${where.loop}/${inner}` : where.loop, loop: where.loop, iteration: where.iteration ?? where.item ?? 0, inner };
  }
  if (where?.include) return { key: where.include };
  return { key: stepId };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
/** The first of these fields an event's data has (older events name some of them differently). */
function pick(data: { [key: string]: Json | undefined } | null | undefined, ...names: string[]): Json | undefined {
  for (const n of names) if (data?.[n] !== undefined) return data[n];
  return undefined;
}

const STATUSES: readonly StepStatus[] = ['pending', 'running', 'completed', 'failed', 'skipped', 'cancelled'];
function asStatus(v: unknown, fallback: StepStatus): StepStatus {
  return STATUSES.find((s) => s === v) ?? fallback;
}

function newStep(): StepRun {
  return { status: 'pending', output: '' };
}

export function reduceEvents(state: RunState, events: readonly RunEvent[]): RunState {
  let next = state;
  let copied = false;
  const applied: RunEvent[] = [];
  for (const ev of events) {
    if (typeof ev.seq === 'number' && ev.seq <= next.lastSeq) continue;
    if (!copied) {
      next = {
        ...next,
        steps: { ...next.steps },
        loops: { ...next.loops },
        errors: [...next.errors],
        log: [...next.log],
        tokens: { ...next.tokens },
      };
      copied = true;
    }
    apply(next, ev);
    applied.push(ev);
    next.applied++;
    if (typeof ev.seq === 'number') next.lastSeq = ev.seq;
  }
  if (next.log.length > LOG_LIMIT) next.log = next.log.slice(-LOG_LIMIT);
  // Grouped apart from `log`, which keeps only the latest events: every call of the run stays.
  if (copied) next.tools = foldToolEvents(next.tools, applied);
  return next;
}

function loopOf(state: RunState, key: string): LoopRun {
  const prev = state.loops[key];
  const loop: LoopRun = prev ? { ...prev, iterations: [...prev.iterations] } : { iterations: [] };
  state.loops[key] = loop;
  return loop;
}

function iterationOf(loop: LoopRun, n: number): IterationRun {
  const i = loop.iterations.findIndex((it) => it.iteration === n);
  if (i >= 0) {
    const copy = { ...loop.iterations[i], steps: { ...loop.iterations[i].steps } };
    loop.iterations[i] = copy;
    return copy;
  }
  const created: IterationRun = { iteration: n, status: 'running', steps: {} };
  loop.iterations.push(created);
  loop.iterations.sort((a, b) => a.iteration - b.iteration);
  return created;
}

function stepOf(state: RunState, key: string): StepRun {
  const s = { ...(state.steps[key] ?? newStep()) };
  state.steps[key] = s;
  return s;
}

/** Applies a step-level change to the node and, for iterations, the iteration's inner step. */
function touch(state: RunState, id: ParsedId, fn: (s: StepRun) => void): void {
  if (id.loop !== undefined && id.iteration !== undefined) {
    const loop = loopOf(state, id.loop);
    const it = iterationOf(loop, id.iteration);
    const inner = { ...(it.steps[id.inner ?? ''] ?? newStep()) };
    fn(inner);
    it.steps[id.inner ?? ''] = inner;
    if (id.inner) fn(stepOf(state, id.key));
    else {
      // A single-step loop's iteration: mirror onto the loop node's output.
      const node = stepOf(state, id.loop);
      node.output = inner.output;
      if (inner.prompt) node.prompt = inner.prompt;
    }
    return;
  }
  fn(stepOf(state, id.key));
}

function apply(state: RunState, ev: RunEvent): void {
  state.log.push(ev);
  // Each case reads `ev.data` as its type's (the switch narrows it); it may be absent on older events.
  const id = ev.stepId ? placeOf(ev.stepId, ev.where) : null;
  if (ev.tokens && (ev.type === 'step_end' || ev.type === 'agent_turn') && num(ev.tokens.total) !== undefined) {
    // Token totals come from agent turns' responses; step_end repeats them, so count turns only.
    if (ev.type === 'agent_turn') {
      state.tokens.prompt += ev.tokens.prompt ?? 0;
      state.tokens.completion += ev.tokens.completion ?? 0;
      state.tokens.total += ev.tokens.total ?? 0;
    }
  }
  switch (ev.type) {
    case 'workflow_start':
      state.status = 'running';
      break;
    case 'workflow_end': {
      const st = str(ev.data?.status) ?? (ev.error ? 'failed' : 'completed');
      state.status = st === 'failed' || st === 'partial' || st === 'cancelled' ? st : 'completed';
      state.end = { status: state.status, reason: str(ev.data?.reason) || ev.error || null };
      // The run's own total, when it is larger than what the turns added up to.
      if (ev.tokens && (num(ev.tokens.total) ?? 0) > state.tokens.total) {
        state.tokens = { prompt: ev.tokens.prompt ?? 0, completion: ev.tokens.completion ?? 0, total: ev.tokens.total ?? 0 };
      }
      break;
    }
    case 'step_start':
      if (!id) break;
      touch(state, id, (s) => {
        s.status = 'running';
        s.stepId = ev.stepId ?? undefined;
        s.startedAt = ev.timestamp;
        s.output = '';
        s.error = undefined;
        if (ev.agent) s.agent = ev.agent;
      });
      if (id.loop === undefined && str(ev.data?.loop_type)) loopOf(state, id.key).loopType = str(ev.data?.loop_type);
      break;
    case 'step_end':
      if (!id) break;
      touch(state, id, (s) => {
        const data = ev.data;
        s.status = asStatus(data?.status, ev.error ? 'failed' : 'completed');
        s.endedAt = ev.timestamp;
        s.duration = ev.duration ?? undefined;
        if (ev.tokens) s.tokens = ev.tokens;
        const cost = num(data?.cost_usd);
        if (cost !== undefined) s.costUsd = cost;
        if (ev.error) s.error = ev.error;
        const content = str(pick(data, 'content', 'output'));
        if (content !== undefined) s.content = content;
        if (data?.result !== undefined) s.result = data.result;
      });
      break;
    case 'step_skipped':
      if (!id) break;
      touch(state, id, (s) => {
        s.status = 'skipped';
        if (ev.message) s.error = ev.message;
      });
      break;
    case 'error':
      state.errors.push(ev.error ?? ev.message ?? 'error');
      if (id) touch(state, id, (s) => (s.error = ev.error ?? ev.message ?? undefined));
      break;
    case 'agent_turn': {
      if (!id) break;
      const data = ev.data;
      const prompt = promptText(data?.prompt);
      const model = str(data?.model);
      // A loop's judge has turns but no step_start / step_end: its turns say when it runs.
      const judge = id.inner === 'untilAgent';
      touch(state, id, (s) => {
        s.stepId = ev.stepId ?? undefined;
        if (prompt !== undefined) s.prompt = prompt;
        if (model) s.model = model;
        if (judge && data?.phase === 'request' && s.status !== 'running') {
          s.status = 'running';
          s.startedAt = s.startedAt ?? ev.timestamp;
        }
        if (judge && data?.phase === 'response') {
          s.status = 'completed';
          s.endedAt = ev.timestamp;
          if (ev.tokens) s.tokens = ev.tokens;
          const cost = num(data.cost_usd);
          if (cost !== undefined) s.costUsd = (s.costUsd ?? 0) + cost;
          const content = str(data.content);
          if (content) s.content = content;
        }
      });
      break;
    }
    case 'output':
      if (!id) break;
      if (ev.stepId) {
        const same = state.live && state.live.stepId === ev.stepId && !state.live.done;
        const text = (same && state.live ? state.live.text : '') + (ev.delta ?? '');
        state.live = { stepId: ev.stepId, agent: ev.agent ?? null, text, done: ev.done === true };
      }
      if (ev.delta) touch(state, id, (s) => (s.output += ev.delta));
      break;
    case 'iteration_start':
    case 'iteration_end': {
      if (!id) break;
      const loopKey = id.loop ?? id.key;
      const n = num(pick(ev.data, 'iteration', 'index')) ?? id.iteration;
      if (n === undefined) break;
      const loop = loopOf(state, loopKey);
      const it = iterationOf(loop, n);
      if (ev.data?.item !== undefined) it.item = ev.data.item;
      if (ev.type === 'iteration_start') {
        it.status = 'running';
        it.startedAt = ev.timestamp;
      } else {
        const data = ev.data;
        it.status = asStatus(data?.status, ev.error ? 'failed' : 'completed');
        it.endedAt = ev.timestamp;
        it.durationMs = num(ev.durationMs) ?? between(it.startedAt, ev.timestamp);
        const content = str(pick(data, 'content', 'output'));
        if (content !== undefined) it.content = content;
        const cumulative = str(data?.cumulative);
        if (cumulative !== undefined) loop.cumulative = cumulative;
      }
      break;
    }
    case 'judge_verdict': {
      if (!id) break;
      const loopKey = id.loop ?? id.key;
      const data = ev.data;
      const n = num(pick(data, 'iteration', 'index')) ?? id.iteration;
      if (n === undefined) break;
      const it = iterationOf(loopOf(state, loopKey), n);
      const done = data?.done;
      it.verdict = {
        done: typeof done === 'boolean' ? done : null,
        reason: str(data?.reason) ?? null,
        failedOpen: data?.failed_open === true || data?.failedOpen === true,
        ...(str(data?.content) ? { content: str(data?.content) } : {}),
        ...(data?.result !== undefined && data.result !== null ? { result: data.result } : {}),
        ...(num(ev.tokens?.total) !== undefined ? { tokens: num(ev.tokens?.total) } : {}),
        ...(typeof data?.cost_usd === 'number' ? { costUsd: data.cost_usd } : {}),
      };
      break;
    }
    case 'loop_end': {
      if (!id) break;
      const loop = loopOf(state, id.loop ?? id.key);
      loop.ended = {
        reason: str(pick(ev.data, 'break_reason', 'reason')) ?? null,
        rounds: num(pick(ev.data, 'rounds_completed', 'iterations', 'rounds')) ?? null,
      };
      const cumulative = str(pick(ev.data, 'cumulative', 'content'));
      if (cumulative !== undefined) loop.cumulative = cumulative;
      break;
    }
    case 'workspace_snapshot':
      state.snapshots++;
      break;
    default:
      break;
  }
}

function between(start: string | undefined, end: string | undefined): number | undefined {
  if (!start || !end) return undefined;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The prompt of an agent_turn request: a string, or {system, user}. */
export function promptText(p: unknown): string | undefined {
  if (typeof p === 'string') return p;
  if (isObject(p)) {
    const parts: string[] = [];
    if (typeof p.system === 'string' && p.system) parts.push(`System:\n${p.system}`);
    if (typeof p.user === 'string' && p.user) parts.push(`User:\n${p.user}`);
    if (parts.length) return parts.join('\n\n');
    return JSON.stringify(p, null, 2);
  }
  return undefined;
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60000)}m ${Math.round((ms % 60000) / 1000)}s`;
}

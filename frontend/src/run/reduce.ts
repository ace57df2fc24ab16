// Run events (docs/api.md, "Events") folded into what the canvas shows: a
// status per node, an iteration strip per loop, judge verdicts, streamed
// output and prompts. Pure; events apply once each (by seq), in seq order.
import type { RunEvent, Status, Where, WorkflowEndData } from '../api/events.gen';
import type { Tokens } from '../api/types';
import { isObject, type Json } from '../doc/types';
import { emptyMailLog, foldMailEvents, type MailLog } from './mail';
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
  /** It went on after the run resumed: `startedAt` is its first start, before the resume. */
  resumed?: boolean;
  /** ... and the milliseconds it had worked before the resume (its duration counts on from there). */
  carriedMs?: number;
  /** Its turns' reasoning, when the provider returned the text or counted the tokens (agent_turn response). */
  reasoning?: ReasoningNote[];
  /** A pinned output answered it: its provider was not called (agent_turn `pinned`). */
  pinned?: boolean;
}

/** One model turn's reasoning: the text the provider returned (capped by the server), and its tokens. */
export interface ReasoningNote {
  turn: number | null;
  text: string;
  tokens: number | null;
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
  /** The agent whose output streamed last, and its text so far; a loop's judge is never it (its reply is not the loop's output). */
  live: OutputStream | null;
  /** A judge streaming its reply now (null once it has answered): shown while it streams, then `live` again. */
  judging: OutputStream | null;
  errors: string[];
  log: RunEvent[];
  tokens: Tokens;
  /** What `workflow_end` said, as soon as it arrives (before the run record catches up). */
  end: { status: RunEndStatus; reason: string | null } | null;
  /** Agents' tool calls by turn, and the calls waiting for a person. */
  tools: ToolLog;
  /** Messages between step agents and the coordinator, its narration and synthesis (every one, unlike `log`). */
  mail: MailLog;
  /** How many workspace snapshots were announced: a change means the workspace's list is out of date. */
  snapshots: number;
  /** Events of an attempt a resume went on past (seqs): kept and shown, but that work was done again. */
  superseded: Set<number>;
  /** Why and where the run went on after losing its worker, from its resume message (the last one). */
  resumed: ResumeNotice | null;
  /** What a fork took from its parent's events without running it again: tokens, and the time those events span. */
  inherited: InheritedPart;
}

/** What a fork's inherited events (copied from its parent, `inherited: true`) add up to. */
export interface InheritedPart {
  events: number;
  /** Loop rounds and items that ended in them. */
  iterations: number;
  tokens: number;
  costUsd: number;
  /** The first and last of their timestamps: the parent's time they span. */
  firstAt: string | null;
  lastAt: string | null;
}

/** One agent's streamed output. */
export interface OutputStream {
  stepId: string;
  agent: string | null;
  text: string;
  done: boolean;
  where?: Where | null;
}

/** A resume message's `data.resumed` (runtime/engine/resume_points.py), and the seq of the message. */
export interface ResumeNotice {
  seq: number;
  reason: string;
  attempt: number | null;
  of: number | null;
  fromSeq: number;
  after: { kind: string; step: string; iteration?: number } | null;
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
    judging: null,
    errors: [],
    log: [],
    tokens: { prompt: 0, completion: 0, total: 0 },
    end: null,
    tools: emptyToolLog(),
    mail: emptyMailLog(),
    snapshots: 0,
    superseded: new Set(),
    resumed: null,
    inherited: { events: 0, iterations: 0, tokens: 0, costUsd: 0, firstAt: null, lastAt: null },
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

/** A response's reasoning, or null when it carries none (no text and no reasoning tokens). */
export function reasoningOf(text: unknown, tokens: unknown, turn: unknown): ReasoningNote | null {
  const t = typeof text === 'string' ? text : '';
  const n = typeof tokens === 'number' && Number.isFinite(tokens) ? tokens : null;
  if (!t && !n) return null;
  return { turn: typeof turn === 'number' ? turn : null, text: t, tokens: n };
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
        superseded: new Set(next.superseded),
        inherited: { ...next.inherited },
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
  if (copied) {
    next.tools = foldToolEvents(next.tools, applied);
    next.mail = foldMailEvents(next.mail, applied);
  }
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
  if (ev.superseded) state.superseded.add(ev.seq);
  if (ev.inherited) {
    const inh = state.inherited;
    inh.events++;
    if (ev.type === 'agent_turn') {
      inh.tokens += ev.tokens?.total ?? 0;
      inh.costUsd += num(ev.data?.cost_usd) ?? 0;
    }
    if (ev.type === 'iteration_end') inh.iterations++;
    if (ev.timestamp) {
      inh.firstAt = inh.firstAt ?? ev.timestamp;
      inh.lastAt = ev.timestamp;
    }
  }
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
        // A step going on after a resume counts from its first start (runtime/engine/resume_points.py).
        s.startedAt = str(ev.data?.started_at) ?? ev.timestamp;
        s.resumed = str(ev.data?.started_at) !== undefined;
        const carried = num(ev.data?.carried_s);
        s.carriedMs = carried === undefined ? undefined : carried * 1000;
        s.output = '';
        s.error = undefined;
        s.reasoning = undefined;
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
      const judge = id.inner === JUDGE;
      if (judge && data?.phase === 'response') state.judging = null; // it has answered, streamed or not
      touch(state, id, (s) => {
        s.stepId = ev.stepId ?? undefined;
        if (prompt !== undefined) s.prompt = prompt;
        if (model) s.model = model;
        const note = data?.phase === 'response' ? reasoningOf(data.reasoning, data.reasoning_tokens, data.turn) : null;
        if (note) s.reasoning = [...(s.reasoning ?? []), note];
        if (data?.pinned) s.pinned = true;
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
        // A judge's reply streams on its own: once it has answered, "Last output" is the loop's again.
        const judge = id.inner === JUDGE;
        const prev = judge ? state.judging : state.live;
        const same = prev && prev.stepId === ev.stepId && !prev.done;
        const text = (same && prev ? prev.text : '') + (ev.delta ?? '');
        const stream: OutputStream = { stepId: ev.stepId, agent: ev.agent ?? null, text, done: ev.done === true, where: ev.where ?? null };
        if (judge) state.judging = stream.done ? null : stream;
        else state.live = stream;
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
      // A loop inside an iteration has no step_start of its own kind: its iterations tell (rounds or items).
      loop.loopType ??= num(ev.data?.iteration) !== undefined ? 'repeat-until' : 'forEach';
      const it = iterationOf(loop, n);
      if (ev.data?.item !== undefined) it.item = ev.data.item;
      if (ev.type === 'iteration_start') {
        it.status = 'running';
        it.startedAt = ev.timestamp;
        if (!loop.iterations.some((other) => other !== it && other.status === 'running')) clearInnerCards(state, loopKey);
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
    case 'message': {
      const notice = resumeNotice(ev);
      if (notice) {
        state.resumed = notice;
        // The lost attempt's events past the boundary: the server marks them stored (`superseded`); a page that
        // watched them arrive live marks them here, up to the new attempt's start.
        const restart = [...state.log].reverse().find((e) => e.type === 'workflow_start' && e.seq > notice.fromSeq && e.seq < ev.seq);
        const upto = restart?.seq ?? ev.seq;
        for (const e of state.log) if (e.seq > notice.fromSeq && e.seq < upto) state.superseded.add(e.seq);
      }
      break;
    }
    default:
      break;
  }
}

/** The inner id a loop's judge runs under (`write.2.untilAgent`). */
const JUDGE = 'untilAgent';

/**
 * A new round began: the loop's inner step cards go back to waiting, so none shows the round before's
 * state while this one runs (each round's own stays in its iteration, under the strip).
 */
function clearInnerCards(state: RunState, loopKey: string): void {
  for (const key of Object.keys(state.steps)) if (key.startsWith(`${loopKey}/`)) state.steps[key] = newStep();
}

/** A `message` event saying the run resumed (runtime/engine/__init__.py), read; null for any other. */
export function resumeNotice(ev: RunEvent): ResumeNotice | null {
  const data = ev.type === 'message' && isObject(ev.data) ? ev.data.resumed : undefined;
  if (!isObject(data)) return null;
  const after = isObject(data.after) && typeof data.after.step === 'string' ? data.after : null;
  return {
    seq: ev.seq,
    reason: str(data.reason) ?? '',
    attempt: num(data.attempt) ?? null,
    of: num(data.of) ?? null,
    fromSeq: num(data.from_seq) ?? 0,
    after: after ? { kind: str(after.kind) ?? 'step', step: after.step as string, ...(num(after.iteration) !== undefined ? { iteration: num(after.iteration) } : {}) } : null,
  };
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

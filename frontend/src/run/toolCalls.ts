// Tool calls grouped by the agent turn that asked for them (docs/api.md, "Events"). An agent_turn
// response opens a turn of its conversation (agentId), tool_call start and end fill it in (a
// turn's calls run at once, so starts and ends interleave: they pair by tool_call_id), and the
// conversation's next request closes it. tool_approval events say which calls wait for a person
// and what was decided. Pure: a batch of events folds into a new log, sharing what it did not change.
import { ApiError, errorText } from '../api/client';
import type { EventType, RunEvent } from '../api/events.gen';

/** asked: the model asked for it and it has not started (it may be waiting for approval). */
export type ToolCallState = 'asked' | 'running' | 'done' | 'failed';

export type ApprovalPhase = 'asked' | 'approved' | 'denied' | 'cancelled';

export interface ApprovalState {
  phase: ApprovalPhase;
  actor: string | null;
  reason: string | null;
}

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments the model gave (untrusted). */
  input: unknown;
  state: ToolCallState;
  /** What the model read back (capped by the tool), as text. */
  output?: string;
  error?: string;
  /** The tool's own time: a wait for a person's decision is left out (`waitedMs`). */
  durationMs?: number;
  /** How long it waited for a person to approve or deny it. */
  waitedMs?: number;
  /** The tool cut its output at its cap. */
  truncated: boolean;
  approval?: ApprovalState;
}

export interface ToolTurn {
  /** Unique in the run (a conversation's turn, and the seq that opened it). */
  key: string;
  agentId: string;
  agent: string;
  stepId: string;
  /** The turn's number in its conversation (null: calls seen without their turn's response). */
  turn: number | null;
  calls: ToolCall[];
}

/** A call that waits for a person (its latest tool_approval is "asked"). */
export interface PendingApproval {
  callId: string;
  toolName: string;
  input: unknown;
  agentId: string;
  stepId: string;
  seq: number;
}

export interface ToolLog {
  /** Every turn that made tool calls, in the order they were asked. */
  turns: ToolTurn[];
  /** Indexes into `turns`, by namespaced step id. */
  byStep: Record<string, number[]>;
  /** Each conversation's turn whose calls are under way (index into `turns`), until its next request. */
  open: Record<string, number>;
  pending: PendingApproval[];
  /** How many calls there are in all. */
  calls: number;
}

export function emptyToolLog(): ToolLog {
  return { turns: [], byStep: {}, open: {}, pending: [], calls: 0 };
}

const TOOL_EVENTS = new Set<EventType>(['agent_turn', 'tool_call', 'tool_approval']);

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A conversation's id; older events without `agentId` get the same one the engine would give. */
export function conversationOf(ev: RunEvent): string {
  return ev.agentId || `${ev.agent ?? ''}@${ev.stepId ?? ''}`;
}

/** A tool's output as text: strings as they are, anything else (submit_result's answer) as JSON. */
export function outputText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

/** One batch's changes: arrays and turns are copied once each, the first time the batch writes them. */
class Fold {
  turns: ToolTurn[];
  byStep: Record<string, number[]>;
  open: Record<string, number>;
  pending: PendingApproval[];
  calls: number;
  private freshTurns = new Set<number>();
  private freshSteps = new Set<string>();

  constructor(log: ToolLog) {
    this.turns = [...log.turns];
    this.byStep = { ...log.byStep };
    this.open = { ...log.open };
    this.pending = log.pending;
    this.calls = log.calls;
  }

  result(): ToolLog {
    return { turns: this.turns, byStep: this.byStep, open: this.open, pending: this.pending, calls: this.calls };
  }

  private writable(i: number): ToolTurn {
    if (!this.freshTurns.has(i)) {
      this.turns[i] = { ...this.turns[i], calls: [...this.turns[i].calls] };
      this.freshTurns.add(i);
    }
    return this.turns[i];
  }

  private addTurn(turn: ToolTurn): number {
    const i = this.turns.length;
    this.turns.push(turn);
    this.freshTurns.add(i);
    if (!this.freshSteps.has(turn.stepId)) {
      this.byStep[turn.stepId] = [...(this.byStep[turn.stepId] ?? [])];
      this.freshSteps.add(turn.stepId);
    }
    this.byStep[turn.stepId].push(i);
    return i;
  }

  /** Where a call is: the conversation's open turn first, then its step's turns (latest first), then anywhere. */
  private locate(agentId: string, stepId: string, id: string): [number, number] | null {
    const inTurn = (t: number): [number, number] | null => {
      const j = this.turns[t]?.calls.findIndex((c) => c.id === id) ?? -1;
      return j >= 0 ? [t, j] : null;
    };
    const open = this.open[agentId];
    if (open !== undefined) {
      const found = inTurn(open);
      if (found) return found;
    }
    const ofStep = this.byStep[stepId] ?? [];
    for (let k = ofStep.length - 1; k >= 0; k--) {
      const found = this.turns[ofStep[k]].agentId === agentId ? inTurn(ofStep[k]) : null;
      if (found) return found;
    }
    return null;
  }

  /**
   * The call with this id, made (in the conversation's open turn, or a turn of its own) when none is known.
   * `anywhere`: look through every turn too (for approvals, which are rare, so the scan costs little).
   */
  private call(ev: RunEvent, id: string, name: string, input: unknown, state: ToolCallState, anywhere = false): [number, number] {
    const agentId = conversationOf(ev);
    const stepId = ev.stepId ?? '';
    const found = this.locate(agentId, stepId, id) ?? (anywhere ? this.locateAnywhere(id) : null);
    if (found) return found;
    let t = this.open[agentId];
    if (t === undefined) {
      t = this.addTurn({ key: `${agentId}#?#${ev.seq}`, agentId, agent: ev.agent ?? '', stepId, turn: null, calls: [] });
      this.open[agentId] = t;
    }
    const turn = this.writable(t);
    turn.calls.push({ id, name, input, state, truncated: false });
    this.calls++;
    return [t, turn.calls.length - 1];
  }

  /** Approvals may come without the conversation's envelope. */
  private locateAnywhere(id: string): [number, number] | null {
    for (let t = this.turns.length - 1; t >= 0; t--) {
      const j = this.turns[t].calls.findIndex((c) => c.id === id);
      if (j >= 0) return [t, j];
    }
    return null;
  }

  private update(at: [number, number], patch: (c: ToolCall) => Partial<ToolCall>): void {
    const turn = this.writable(at[0]);
    const c = turn.calls[at[1]];
    turn.calls[at[1]] = { ...c, ...patch(c) };
  }

  apply(ev: RunEvent): void {
    const agentId = conversationOf(ev);
    if (ev.type === 'agent_turn') {
      delete this.open[agentId];
      const data = ev.data;
      if (data?.phase !== 'response' || !Array.isArray(data.tool_calls) || !data.tool_calls.length) return;
      const calls: ToolCall[] = [];
      for (const c of data.tool_calls) {
        if (typeof c !== 'object' || c === null || Array.isArray(c) || typeof c.id !== 'string') continue;
        calls.push({ id: c.id, name: text(c.name) ?? '', input: undefined, state: 'asked', truncated: false });
      }
      const turn = typeof data.turn === 'number' ? data.turn : null;
      this.open[agentId] = this.addTurn({ key: `${agentId}#${turn ?? '?'}#${ev.seq}`, agentId, agent: ev.agent ?? '', stepId: ev.stepId ?? '', turn, calls });
      this.calls += calls.length;
      return;
    }
    if (ev.type !== 'tool_call' && ev.type !== 'tool_approval') return;
    // Destructured, `type` still narrows `data`.
    const { type, data } = ev;
    const id = text(data?.tool_call_id);
    if (!data || !id) return;
    const name = text(data.tool_name) ?? '';
    if (type === 'tool_call' && data.phase === 'start') {
      const at = this.call(ev, id, name, data.input, 'running');
      this.update(at, (c) => ({ name: name || c.name, input: data.input ?? c.input, state: c.state === 'asked' ? 'running' : c.state }));
    } else if (type === 'tool_call' && data.phase === 'end') {
      const at = this.call(ev, id, name, data.input, 'running');
      this.update(at, (c) => ({
        name: name || c.name,
        state: ev.error ? 'failed' : 'done',
        output: outputText(data.output),
        error: ev.error || undefined,
        durationMs: typeof ev.durationMs === 'number' ? ev.durationMs : undefined,
        waitedMs: typeof data.waited_ms === 'number' ? data.waited_ms : undefined,
        truncated: data.truncated === true,
      }));
    } else if (type === 'tool_approval') {
      const phase = data.phase;
      if (phase !== 'asked' && phase !== 'approved' && phase !== 'denied' && phase !== 'cancelled') return;
      const approval: ApprovalState = { phase, actor: text(data.actor) ?? null, reason: text(data.reason) ?? null };
      const at = this.call(ev, id, name, data.input, 'asked', true);
      this.update(at, (c) => ({ approval, input: c.input ?? data.input }));
      const rest = this.pending.filter((p) => p.callId !== id);
      this.pending =
        phase === 'asked' ? [...rest, { callId: id, toolName: name, input: data.input, agentId, stepId: ev.stepId ?? '', seq: ev.seq }] : rest.length !== this.pending.length ? rest : this.pending;
    }
  }
}

/** The log after a batch of events (any types: the ones that are not about tools are passed over). */
export function foldToolEvents(log: ToolLog, events: readonly RunEvent[]): ToolLog {
  let fold: Fold | null = null;
  for (const ev of events) {
    if (!TOOL_EVENTS.has(ev.type)) continue;
    fold ??= new Fold(log);
    fold.apply(ev);
  }
  return fold ? fold.result() : log;
}

/** The turns of one namespaced step, oldest first. */
export function turnsOfStep(log: ToolLog, stepId: string | undefined): ToolTurn[] {
  if (stepId === undefined) return [];
  return (log.byStep[stepId] ?? []).map((i) => log.turns[i]);
}

/**
 * The calls under way now (started, not ended), with their conversation: the open turns' running calls. A call
 * waiting for a person is not running: it is listed with the approvals, not here.
 */
export function runningCalls(log: ToolLog): { agentId: string; call: ToolCall }[] {
  const out: { agentId: string; call: ToolCall }[] = [];
  for (const i of Object.values(log.open)) {
    const turn = log.turns[i];
    for (const call of turn?.calls ?? []) if (call.state === 'running' && call.approval?.phase !== 'asked') out.push({ agentId: turn.agentId, call });
  }
  return out;
}

// ---------------------------------------------------------------- search

const HAYSTACKS = new WeakMap<ToolCall, string>();

/** A call's searchable text (name, arguments, output, error), lower case; kept per call object. */
function haystack(call: ToolCall): string {
  let hay = HAYSTACKS.get(call);
  if (hay === undefined) {
    const args = call.input === undefined ? '' : typeof call.input === 'string' ? call.input : JSON.stringify(call.input);
    hay = [call.name, args, call.output ?? '', call.error ?? ''].join('\n').toLowerCase();
    HAYSTACKS.set(call, hay);
  }
  return hay;
}

export function callMatches(call: ToolCall, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || haystack(call).includes(q);
}

/** The turns with only the calls that match (case-insensitive), and how many matched; all of them for an empty query. */
export function filterTurns(turns: readonly ToolTurn[], query: string): { turns: ToolTurn[]; matches: number } {
  const q = query.trim().toLowerCase();
  if (!q) return { turns: [...turns], matches: turns.reduce((n, t) => n + t.calls.length, 0) };
  const shown: ToolTurn[] = [];
  let matches = 0;
  for (const t of turns) {
    const calls = t.calls.filter((c) => haystack(c).includes(q));
    if (!calls.length) continue;
    matches += calls.length;
    shown.push(calls.length === t.calls.length ? t : { ...t, calls });
  }
  return { turns: shown, matches };
}

// ---------------------------------------------------------------- how calls read

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ⏎ ').replace(/\s+/g, ' ').trim();
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/**
 * A call's arguments on one line: a lone argument as its value (`ls -la`), several as
 * `name: value` pairs; newlines shown as ⏎; at most `max` characters.
 */
export function argsLine(input: unknown, max = 120): string {
  if (input === undefined || input === null) return '';
  const value = (v: unknown) => oneLine(typeof v === 'string' ? v : JSON.stringify(v) ?? String(v));
  if (typeof input === 'object' && !Array.isArray(input)) {
    const entries = Object.entries(input as Record<string, unknown>);
    if (entries.length === 1) return cut(value(entries[0][1]), max);
    return cut(entries.map(([k, v]) => `${k}: ${value(v)}`).join(', '), max);
  }
  return cut(value(input), max);
}

/** A call's arguments in full, one entry per argument (a string as its text, so that a file's content reads as written). */
export function argEntries(input: unknown): { name: string; text: string }[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'object' && !Array.isArray(input)) {
    return Object.entries(input as Record<string, unknown>).map(([name, v]) => ({ name, text: typeof v === 'string' ? v : JSON.stringify(v, null, 2) }));
  }
  return [{ name: '', text: typeof input === 'string' ? input : JSON.stringify(input, null, 2) }];
}

/** At most `max` characters of a long text, and how many were left out. */
export function capText(s: string, max: number): { text: string; hidden: number } {
  return s.length > max ? { text: s.slice(0, max), hidden: s.length - max } : { text: s, hidden: 0 };
}

/** What was decided about a gated call, in words ("approved by alice"). */
export function approvalWords(a: ApprovalState): string {
  const by = a.actor ? ` by ${a.actor}` : '';
  switch (a.phase) {
    case 'asked':
      return 'waiting for approval';
    case 'approved':
      return `approved${by}`;
    case 'denied':
      return `denied${by}${a.reason ? `: ${a.reason}` : ''}`;
    case 'cancelled':
      return `cancelled (${a.reason || 'run stopped'})`;
  }
}

/** Why approving or denying failed, in words: a 409 means someone (or the run's end) decided first. */
export function decisionErrorText(err: unknown, verb: 'approve' | 'deny'): string {
  if (err instanceof ApiError && err.status === 409) {
    const detail = err.message.trim();
    return /^the request failed/i.test(detail) || !detail ? 'Already decided: someone answered first, or the run ended.' : `Already decided: ${detail}`;
  }
  return `Could not ${verb} the call: ${errorText(err)}`;
}

// The Events tab's rows: one row per event, except streamed output, which becomes one row per turn
// (its deltas joined, so text is never split mid-word); verdicts and control actions in words.
import type { RunEvent, RunEventOf } from '../api/events.gen';
import { iterationName } from './labels';
import { formatMs, resumeNotice } from './reduce';
import { changeCounts, snapshotWords } from './snapshotLabels';
import { approvalWords, argsLine } from './toolCalls';

export interface EventRow {
  /** The first event's seq (the row's key) and the last one's. */
  seq: number;
  lastSeq: number;
  time: string;
  type: string;
  stepId: string;
  text: string;
  tone: 'plain' | 'error' | 'verdict' | 'control' | 'resume';
  /** Done by an attempt a resume went on past: kept, but that work was done again. */
  superseded: boolean;
}

/** HH:MM:SS.mmm of an RFC 3339 timestamp, in the viewer's time zone. */
export function clockTime(timestamp: string | undefined): string {
  if (!timestamp) return '';
  const d = new Date(timestamp);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A pause, resume or stop in words, with who did it ("run paused … (by alice)"). */
export function controlText(e: RunEventOf<'run_control'>): string {
  const data = e.data;
  const done: Record<string, string> = { pause: 'run paused', resume: 'run resumed', stop: 'run stopped' };
  const action = typeof data?.action === 'string' ? data.action : '';
  const text = e.message ?? done[action] ?? action;
  const actor = typeof data?.actor === 'string' && data.actor.trim() ? data.actor.trim() : null;
  return actor && !text.includes(`(by ${actor})`) ? `${text} (by ${actor})` : text;
}

/** A tool event's tool name ('' when an older event has none). */
function toolName(e: RunEventOf<'tool_call' | 'tool_approval'>): string {
  return typeof e.data?.tool_name === 'string' ? e.data.tool_name : '';
}

function count(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

function describe(e: RunEvent): { text: string; tone: EventRow['tone'] } {
  if (e.type === 'judge_verdict') {
    const data = e.data;
    const verdict = data?.failed_open ? 'failed open' : data?.done ? 'done' : 'not done';
    const n = typeof data?.iteration === 'number' ? ` of ${iterationName('round', data.iteration)}` : '';
    return { text: `judge${n}: ${verdict}${typeof data?.reason === 'string' && data.reason ? ` — ${data.reason}` : ''}`, tone: 'verdict' };
  }
  if (e.type === 'run_control') return { text: controlText(e), tone: 'control' };
  if (e.type === 'plan_ready') {
    const steps = Array.isArray(e.data?.workflow?.steps) ? e.data.workflow.steps : [];
    return { text: `plan: ${steps.length} step${steps.length === 1 ? '' : 's'} in order ${steps.join(' → ')}`, tone: 'plain' };
  }
  if (resumeNotice(e)) return { text: e.message ?? 'run resumed', tone: 'resume' };
  if (e.type === 'tool_call') {
    const tool = toolName(e);
    if (e.error) return { text: `${tool} failed: ${e.error}`, tone: 'error' };
    if (e.data?.phase === 'start') return { text: `${tool} ${argsLine(e.data.input, 100)}`, tone: 'plain' };
    return { text: `${tool} done${typeof e.durationMs === 'number' ? ` in ${formatMs(e.durationMs)}` : ''}${e.data?.truncated ? ' (output truncated)' : ''}`, tone: 'plain' };
  }
  if (e.type === 'tool_approval' && typeof e.data?.phase === 'string') {
    const data = e.data;
    const approval = { phase: data.phase, actor: typeof data.actor === 'string' ? data.actor : null, reason: typeof data.reason === 'string' ? data.reason : null };
    return { text: `${toolName(e)}: ${approvalWords(approval)}`, tone: 'control' };
  }
  if (e.type === 'workspace_snapshot' && typeof e.data?.snapshot === 'number') {
    const data = e.data;
    const label = typeof data.label === 'string' ? data.label : '';
    const stepId = typeof data.step_id === 'string' ? data.step_id : null;
    const c = changeCounts({ added: count(data.added), modified: count(data.modified), removed: count(data.removed) });
    const note = typeof data.note === 'string' && data.note ? ` (${data.note})` : '';
    return { text: `snapshot #${data.snapshot} ${snapshotWords({ label, step_id: stepId })} (${c.added} ${c.modified} ${c.removed})${note}`, tone: 'plain' };
  }
  if (e.error) return { text: e.error, tone: 'error' };
  return { text: e.message ?? '', tone: 'plain' };
}

/** The rows of `log`; `superseded`: the seqs of a lost attempt's events (RunState.superseded), marked so. */
export function eventRows(log: readonly RunEvent[], superseded: ReadonlySet<number> = new Set()): EventRow[] {
  const rows: EventRow[] = [];
  // The open streamed turn of each step (several steps stream at once in parallel branches).
  const open = new Map<string, EventRow>();
  for (const e of log) {
    const stepId = e.stepId ?? '';
    if (e.type === 'output') {
      const turn = open.get(stepId);
      if (turn) {
        turn.text += e.delta ?? '';
        turn.lastSeq = e.seq;
      } else {
        const row: EventRow = { seq: e.seq, lastSeq: e.seq, time: clockTime(e.timestamp), type: 'output', stepId, text: e.delta ?? '', tone: 'plain', superseded: superseded.has(e.seq) || e.superseded === true };
        rows.push(row);
        open.set(stepId, row);
      }
      if (e.done) open.delete(stepId);
      continue;
    }
    if (e.type === 'step_end' || e.type === 'agent_turn') open.delete(stepId);
    const { text, tone } = describe(e);
    rows.push({ seq: e.seq, lastSeq: e.seq, time: clockTime(e.timestamp), type: e.type, stepId, text, tone, superseded: superseded.has(e.seq) || e.superseded === true });
  }
  return rows;
}

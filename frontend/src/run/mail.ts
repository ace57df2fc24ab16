// Messages between step agents and the coordinator, and what the coordinator said, folded from their events
// (docs/api.md, "Messages and the coordinator"). A step's send_message (message_sent) goes to the coordinator,
// which reads it (coordinator_inbox_message); the coordinator's forward_to_agent (coordinator_message) goes to a
// running step, which reads it at its next model turn (agent_inbox_drain); a message that cannot be delivered
// is dropped once (message_dropped), with upstream's reason. Pure: a batch folds into a new log, sharing what
// it did not change. Every text here came from a model: it is shown as text, never as markup.
import type { EventType, RunEvent } from '../api/events.gen';

export const COORDINATOR = 'coordinator';

export type MessageState = 'queued' | 'drained' | 'dropped';

export interface MailMessage {
  /** msg-send-<n> or msg-fwd-<n> (one counter per run). */
  id: string;
  sender: string;
  /** The namespaced step id it went to, or `coordinator`. */
  to: string;
  kind: string;
  text: string;
  state: MessageState;
  /** When it was sent (queued), or dropped when it never was. */
  at: string;
  seq: number;
  /** When its reader took it from the inbox, and at which model turn (a step's). */
  drainedAt?: string;
  turn?: number;
  /** Upstream's wire reason (`target-terminal`), when dropped. */
  reason?: string;
  droppedAt?: string;
}

export interface Narration {
  seq: number;
  at: string;
  text: string;
  /** A forward refused because its target is a loop or include: the text was narrated instead. */
  rejectedTarget?: string;
}

export interface MailLog {
  /** Every message, in the order it was sent (or dropped unsent). */
  messages: MailMessage[];
  /** Index into `messages`, by message id. */
  byId: Record<string, number>;
  narration: Narration[];
  /** The coordinator's synthesis: the last one wins, as the run's summary does. */
  synthesis: { summary: string; source: string; at: string } | null;
  /** The coordinator reached its wake-cycle cap. */
  warning: string | null;
}

export function emptyMailLog(): MailLog {
  return { messages: [], byId: {}, narration: [], synthesis: null, warning: null };
}

const MAIL_EVENTS = new Set<EventType>([
  'message_sent',
  'coordinator_message',
  'agent_inbox_drain',
  'coordinator_inbox_message',
  'message_dropped',
  'coordinator_narration',
  'coordinator_synthesis',
  'max_wake_cycles_warning',
]);

export function isMailEvent(ev: RunEvent): boolean {
  return MAIL_EVENTS.has(ev.type);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The log after `events` (already in seq order, each once). The same log when none of them is a message's. */
export function foldMailEvents(log: MailLog, events: readonly RunEvent[]): MailLog {
  const mine = events.filter(isMailEvent);
  if (!mine.length) return log;
  const next: MailLog = { ...log, messages: [...log.messages], byId: { ...log.byId }, narration: [...log.narration] };
  for (const ev of mine) apply(next, ev);
  return next;
}

function add(log: MailLog, m: MailMessage): void {
  log.byId[m.id] = log.messages.length;
  log.messages.push(m);
}

function update(log: MailLog, id: string | undefined, change: Partial<MailMessage>): boolean {
  const i = id !== undefined ? log.byId[id] : undefined;
  if (i === undefined) return false;
  log.messages[i] = { ...log.messages[i], ...change };
  return true;
}

function apply(log: MailLog, ev: RunEvent): void {
  switch (ev.type) {
    case 'message_sent':
    case 'coordinator_message': {
      const d = ev.data;
      if (!d || typeof d.id !== 'string') return;
      add(log, {
        id: d.id,
        sender: str(d.sender) ?? (ev.type === 'coordinator_message' ? COORDINATOR : (ev.stepId ?? '')),
        to: str(d.to) ?? (ev.type === 'message_sent' ? COORDINATOR : (ev.stepId ?? '')),
        kind: str(d.kind) ?? 'info',
        text: str(d.text) ?? '',
        state: 'queued',
        at: ev.timestamp,
        seq: ev.seq,
      });
      return;
    }
    case 'agent_inbox_drain':
      update(log, str(ev.data?.id), { state: 'drained', drainedAt: ev.timestamp, turn: typeof ev.data?.turn === 'number' ? ev.data.turn : undefined });
      return;
    case 'coordinator_inbox_message':
      // Lifecycle notices repeat events the run already has: only messages are the coordinator's mail.
      if (ev.data?.source === 'message') update(log, str(ev.data.id), { state: 'drained', drainedAt: ev.timestamp });
      return;
    case 'message_dropped': {
      const d = ev.data;
      if (!d || typeof d.id !== 'string') return;
      const dropped = { state: 'dropped' as const, reason: str(d.reason) ?? '', droppedAt: ev.timestamp };
      if (update(log, d.id, { ...dropped, to: str(d.to) ?? log.messages[log.byId[d.id]]?.to ?? '' })) return;
      // Never queued (a forward to an id no running step has): listed all the same, as dropped.
      add(log, { id: d.id, sender: str(d.sender) ?? '', to: str(d.to) ?? '', kind: str(d.kind) ?? 'info', text: str(d.text) ?? '', at: ev.timestamp, seq: ev.seq, ...dropped });
      return;
    }
    case 'coordinator_narration': {
      const text = str(ev.data?.text) ?? ev.message ?? '';
      const rejected = str(ev.data?.rejected_target);
      log.narration.push({ seq: ev.seq, at: ev.timestamp, text, ...(rejected ? { rejectedTarget: rejected } : {}) });
      return;
    }
    case 'coordinator_synthesis':
      log.synthesis = { summary: str(ev.data?.summary) ?? ev.message ?? '', source: str(ev.data?.source) ?? 'finalize', at: ev.timestamp };
      return;
    case 'max_wake_cycles_warning':
      log.warning = ev.message ?? `The coordinator reached its ${String(ev.data?.limit ?? '')} wake cycles.`;
      return;
    default:
      return;
  }
}

/** Upstream's drop reasons, in words (the wire string stays beside them for searching). */
const DROP_WORDS: Record<string, string> = {
  'workflow-cancelled': 'the run was stopped',
  'target-terminal': 'its step had already finished',
  'unknown-step': 'no running step has that id',
  'mailbox-closed-by-finalize': 'the coordinator had already finalized',
  'max-wake-cycles': 'the coordinator had reached its wake-cycle cap',
  'hold-timeout': 'it waited too long to be delivered',
  'mailbox-full': 'the mailbox was full',
  'no-transcript': 'there was no conversation to put it in',
  'transcript-too-large': 'the conversation was too large to take it',
  'resume-shutdown': 'the run was handed back while it waited',
  'resolver-error': 'its target could not be worked out',
};

export function dropWords(reason: string | undefined): string {
  if (!reason) return 'dropped';
  return DROP_WORDS[reason] ?? reason;
}

/** A message's state in words: "read by loop-stages.1.worker", "dropped: its step had already finished". */
export function stateWords(m: MailMessage): string {
  if (m.state === 'dropped') return `dropped: ${dropWords(m.reason)}`;
  if (m.state === 'drained') return `read by ${m.to}${m.turn ? ` at turn ${m.turn}` : ''}`;
  return 'sent, not read yet';
}

/** The messages whose sender, receiver, kind, text, id or state contain `query` (any case). */
export function searchMessages(messages: readonly MailMessage[], query: string): MailMessage[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...messages];
  return messages.filter((m) =>
    [m.id, m.sender, m.to, m.kind, m.text, m.state, m.reason ?? '', stateWords(m)].some((field) => field.toLowerCase().includes(q)),
  );
}

/** What the coordinator's lane lists, in order: its narrations and what it forwarded (or failed to) to whom. */
export type LaneItem = { kind: 'narration'; seq: number; at: string; narration: Narration } | { kind: 'forward'; seq: number; at: string; message: MailMessage };

export function laneItems(log: MailLog): LaneItem[] {
  const items: LaneItem[] = log.narration.map((n) => ({ kind: 'narration', seq: n.seq, at: n.at, narration: n }));
  for (const m of log.messages) if (m.sender === COORDINATOR) items.push({ kind: 'forward', seq: m.seq, at: m.at, message: m });
  return items.sort((a, b) => a.seq - b.seq);
}

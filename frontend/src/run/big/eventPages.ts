// The big-run page's Events panel pages through the run's events on the
// server, 200 at a time, newest first: it never holds every event.
import type { EventPageQuery } from '../../api/client';
import type { EventType } from '../../api/events.gen';

export const EVENT_PAGE = 200;

/** The event types the filter offers (docs/api.md, "Events"). */
export const EVENT_TYPES = [
  'workflow_start',
  'workflow_end',
  'plan_ready',
  'step_start',
  'step_end',
  'step_skipped',
  'iteration_start',
  'iteration_end',
  'judge_verdict',
  'loop_end',
  'agent_turn',
  'output',
  'tool_call',
  'tool_approval',
  'workspace_snapshot',
  'message',
  'error',
  'run_control',
] as const satisfies readonly EventType[];

/** Which page: the newest, the one before a seq (older), or the one after a seq (newer). */
export type PageAt = { kind: 'newest' } | { kind: 'older'; before: number } | { kind: 'newer'; after: number };

export interface EventFilter {
  /** One type, or '' for all. */
  type: string;
  /** A top-level step (and what runs inside it), or '' for all. */
  step: string;
}

/** The query for a page. `latestSeq`: the newest seq known (the newest page is the one before the next). */
export function pageQuery(at: PageAt, latestSeq: number, filter: EventFilter, limit = EVENT_PAGE): EventPageQuery {
  const base: EventPageQuery = { limit, ...(filter.type ? { types: [filter.type] } : {}), ...(filter.step ? { step: filter.step } : {}) };
  if (at.kind === 'newer') return { ...base, after: at.after };
  return { ...base, before: at.kind === 'older' ? at.before : latestSeq + 1 };
}

/** Whether a page just fetched is the first or the last there is: a short page reached the end it was going to. */
export function pageEnds(at: PageAt, got: number, limit = EVENT_PAGE): { atOldest: boolean; atNewest: boolean } {
  const short = got < limit;
  if (at.kind === 'newer') return { atOldest: false, atNewest: short };
  return { atOldest: short, atNewest: at.kind === 'newest' };
}

/** The page before (older) or after (newer) a page of events in seq order; null at an empty page. */
export function stepFrom(events: readonly { seq: number }[], direction: 'older' | 'newer'): PageAt | null {
  if (!events.length) return null;
  return direction === 'older' ? { kind: 'older', before: events[0].seq } : { kind: 'newer', after: events[events.length - 1].seq };
}

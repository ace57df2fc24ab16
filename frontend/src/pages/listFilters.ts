// What the two list pages are filtered by, kept in the address (`/?q=review&valid=invalid`,
// `/runs?status=failed,cancelled&from=2026-11-01`) so that a reload, a shared link and Back all
// show the same list. Read leniently: a value the page does not know is the default, never an error.
// Other parameters in the address (`workspace`) are kept as they are.
import { RUN_STATUSES, type RunStatus } from '../api/events.gen';
import type { RunListQuery, WorkflowListQuery } from '../api/lists';
import type { Run } from '../api/types';

export type Validity = 'all' | 'valid' | 'invalid';
export type UpdatedWithin = 'any' | 'today' | '7d' | '30d';

export interface WorkflowFilters {
  /** As typed (the server trims): trimming here would eat the space the user is typing. */
  q: string;
  valid: Validity;
  updated: UpdatedWithin;
}

export interface RunFilters {
  /** A piece of the workflow's name, as typed. */
  q: string;
  statuses: RunStatus[];
  provider: string;
  /** Local calendar days, YYYY-MM-DD ('' : open); both included. */
  from: string;
  to: string;
}

export const NO_WORKFLOW_FILTERS: WorkflowFilters = { q: '', valid: 'all', updated: 'any' };
export const NO_RUN_FILTERS: RunFilters = { q: '', statuses: [], provider: '', from: '', to: '' };

const VALIDITY: readonly Validity[] = ['all', 'valid', 'invalid'];
const UPDATED: readonly UpdatedWithin[] = ['any', 'today', '7d', '30d'];
const OURS = ['q', 'valid', 'updated', 'status', 'provider', 'from', 'to'];

function one<T extends string>(raw: string | null, allowed: readonly T[], fallback: T): T {
  return raw !== null && (allowed as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

/** A real calendar day as YYYY-MM-DD, else ''. */
export function calendarDay(raw: string | null): string {
  if (!raw || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return '';
  const [y, m, d] = raw.split('-').map(Number);
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d ? raw : '';
}

export function readWorkflowFilters(search: string): WorkflowFilters {
  const p = new URLSearchParams(search);
  return { q: p.get('q') ?? '', valid: one(p.get('valid'), VALIDITY, 'all'), updated: one(p.get('updated'), UPDATED, 'any') };
}

export function readRunFilters(search: string): RunFilters {
  const p = new URLSearchParams(search);
  const asked = (p.get('status') ?? '').split(',');
  return {
    q: p.get('q') ?? '',
    // In the one order the page shows them, each once.
    statuses: RUN_STATUSES.filter((s) => asked.includes(s)),
    provider: /^[a-z][a-z0-9_-]{0,39}$/.test(p.get('provider') ?? '') ? (p.get('provider') as string) : '',
    from: calendarDay(p.get('from')),
    to: calendarDay(p.get('to')),
  };
}

/** The address's query with these filters (defaults left out), everything else in it kept: '' or '?…'. */
function withFilters(search: string, set: Record<string, string>): string {
  const p = new URLSearchParams(search);
  for (const key of OURS) p.delete(key);
  for (const [key, value] of Object.entries(set)) if (value) p.set(key, value);
  const text = p.toString();
  return text ? `?${text}` : '';
}

export function withWorkflowFilters(search: string, f: WorkflowFilters): string {
  return withFilters(search, { q: f.q, valid: f.valid === 'all' ? '' : f.valid, updated: f.updated === 'any' ? '' : f.updated });
}

export function withRunFilters(search: string, f: RunFilters): string {
  const statuses = RUN_STATUSES.filter((s) => f.statuses.includes(s));
  return withFilters(search, { q: f.q, status: statuses.join(','), provider: f.provider, from: f.from, to: f.to });
}

export function workflowsFiltered(f: WorkflowFilters): boolean {
  return f.q.trim() !== '' || f.valid !== 'all' || f.updated !== 'any';
}

export function runsFiltered(f: RunFilters): boolean {
  return f.q.trim() !== '' || f.statuses.length > 0 || f.provider !== '' || f.from !== '' || f.to !== '';
}

/** Midnight at the start of a local calendar day (`days` later). */
function localMidnight(day: string, days = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + days);
}

/** The server's query for these filters; "today" and "last 7 days" count in the viewer's own days, from `now`. */
export function workflowQuery(f: WorkflowFilters, now: Date): WorkflowListQuery {
  const back = { any: null, today: 0, '7d': 6, '30d': 29 }[f.updated];
  const since = back === null ? undefined : new Date(now.getFullYear(), now.getMonth(), now.getDate() - back).toISOString();
  return { q: f.q.trim() || undefined, valid: f.valid === 'all' ? undefined : f.valid === 'valid', updatedAfter: since };
}

/** The server's query for these filters: the days are the viewer's local ones, `to` included. */
export function runQuery(f: RunFilters): RunListQuery {
  return {
    q: f.q.trim() || undefined,
    statuses: f.statuses.length ? f.statuses : undefined,
    providers: f.provider ? [f.provider] : undefined,
    createdAfter: f.from ? localMidnight(f.from).toISOString() : undefined,
    createdBefore: f.to ? localMidnight(f.to, 1).toISOString() : undefined,
  };
}

/** Whether a run (one that arrived live, over the socket) belongs in the list these filters show. */
export function runMatches(run: Run, f: RunFilters): boolean {
  const q = f.q.trim().toLowerCase();
  if (q && !(run.workflow_name ?? '').toLowerCase().includes(q)) return false;
  if (f.statuses.length && !f.statuses.includes(run.status)) return false;
  if (f.provider && run.provider !== f.provider) return false;
  const created = new Date(run.created_at).getTime();
  if (f.from && !(created >= localMidnight(f.from).getTime())) return false;
  if (f.to && !(created < localMidnight(f.to, 1).getTime())) return false;
  return true;
}

// The two searchable lists (GET /workflows, GET /runs, docs/api.md): what a page is asked with and
// what comes back. The body is a plain list; the total and the next page's cursor come in headers.
import type { RunStatus } from './events.gen';

export interface WorkflowListQuery {
  workspace?: number | null;
  /** A piece of the name, any case. */
  q?: string;
  /** The current version's validity (absent: either). */
  valid?: boolean;
  /** ISO instants: updated at or after, and before. */
  updatedAfter?: string;
  updatedBefore?: string;
  limit?: number;
  offset?: number;
}

export interface RunListQuery {
  workspace?: number | null;
  workflow?: number;
  /** A piece of the workflow's name, any case. */
  q?: string;
  statuses?: readonly RunStatus[];
  providers?: readonly string[];
  /** ISO instants: created at or after, and before. */
  createdAfter?: string;
  createdBefore?: string;
  limit?: number;
  /** The previous page's `next`: the runs after it. */
  before?: string | null;
}

export interface ListPage<T> {
  items: T[];
  /** How many match in all (null: the server did not say). */
  total: number | null;
  /** The cursor of the next page (runs); null on the last page. */
  next: string | null;
}

function query(pairs: [string, string | number | boolean | undefined | null][]): string {
  const params = new URLSearchParams();
  for (const [key, value] of pairs) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `?workspace=…&q=…` for GET /workflows (only what is set). */
export function workflowListParams(q: WorkflowListQuery): string {
  return query([
    ['workspace', q.workspace || undefined],
    ['q', q.q?.trim()],
    ['valid', q.valid],
    ['updated_after', q.updatedAfter],
    ['updated_before', q.updatedBefore],
    ['limit', q.limit],
    ['offset', q.offset || undefined],
  ]);
}

/** `?workspace=…&status=a,b…` for GET /runs (only what is set). */
export function runListParams(q: RunListQuery): string {
  return query([
    ['workspace', q.workspace || undefined],
    ['workflow', q.workflow],
    ['q', q.q?.trim()],
    ['status', q.statuses?.join(',')],
    ['provider', q.providers?.join(',')],
    ['created_after', q.createdAfter],
    ['created_before', q.createdBefore],
    ['limit', q.limit],
    ['before', q.before],
  ]);
}

/** A page from the list's body and headers. */
export function pageOf<T>(items: T[], headers: Pick<Headers, 'get'>): ListPage<T> {
  const total = Number(headers.get('X-Total-Count') ?? NaN);
  return { items, total: Number.isInteger(total) && total >= 0 ? total : null, next: headers.get('X-Next-Cursor') || null };
}

// The two searchable lists (GET /workflows, GET /runs, docs/api.md): what a page is asked with and
// what comes back. The body is a plain list; the total and the next page's cursor come in headers.
import type { RunStatus } from './events.gen';
import type { operations } from './openapi.gen';

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

/** The query GET /workflows takes, as the OpenAPI document declares it. */
export type WorkflowListParams = NonNullable<operations['designer_api_list_workflows']['parameters']['query']>;
/** The query GET /runs takes, as the OpenAPI document declares it. */
export type RunListParams = NonNullable<operations['runtime_api_list_runs']['parameters']['query']>;

/** Only what is set: an empty text, an empty list, null and 0 (workspace, offset) say nothing. */
const text = (value: string | undefined) => value || undefined;
const list = (values: readonly string[] | undefined) => (values?.length ? values.join(',') : undefined);

/** `workspace`, `q` ... for GET /workflows (only what is set). */
export function workflowListParams(q: WorkflowListQuery): WorkflowListParams {
  return {
    workspace: q.workspace || undefined,
    q: text(q.q?.trim()),
    valid: q.valid,
    updated_after: text(q.updatedAfter),
    updated_before: text(q.updatedBefore),
    limit: q.limit,
    offset: q.offset || undefined,
  };
}

/** `workspace`, `status=a,b` ... for GET /runs (only what is set). */
export function runListParams(q: RunListQuery): RunListParams {
  return {
    workspace: q.workspace || undefined,
    workflow: q.workflow,
    q: text(q.q?.trim()),
    status: list(q.statuses),
    provider: list(q.providers),
    created_after: text(q.createdAfter),
    created_before: text(q.createdBefore),
    limit: q.limit,
    before: text(q.before ?? undefined),
  };
}

/** A page from the list's body and headers. */
export function pageOf<T>(items: T[], headers: Pick<Headers, 'get'>): ListPage<T> {
  const total = Number(headers.get('X-Total-Count') ?? NaN);
  return { items, total: Number.isInteger(total) && total >= 0 ? total : null, next: headers.get('X-Next-Cursor') || null };
}

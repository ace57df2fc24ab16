// The browser's one door to the server (docs/api.md). Errors become ApiError
// with a readable message; a 401 sends the user to the login page.
import type { JsonObject, Layout, WorkflowDoc } from '../doc/types';
import type {
  AuditEntry,
  Budgets,
  Invitation,
  NewInvitation,
  ProviderInfo,
  Role,
  WorkspaceDetail,
  WorkspaceKey,
  WorkspaceLimits,
  WorkspaceSummary,
  WorkspaceUsage,
  Diag,
  Iteration,
  Run,
  RunEvent,
  RunPolicies,
  RunWorkspace,
  SnapshotDiff,
  SnapshotFileContent,
  SnapshotFiles,
  ToolDecision,
  ToolInfo,
  WorkspaceUpload,
  ValidateResult,
  VersionInfo,
  Workflow,
  WorkflowSummary,
} from './types';
import { pageOf, runListParams, workflowListParams, type ListPage, type RunListQuery, type WorkflowListQuery } from './lists';

export const API = '/api/v1';

export class ApiError extends Error {
  status: number;
  diagnostics: Diag[];
  /** A 429's wait before trying again, in seconds (null: not said). */
  retryAfterSeconds: number | null = null;
  /** A 429's limit that was reached (a workspace limit such as "runs_per_day"). */
  limit: string | null = null;
  constructor(status: number, message: string, diagnostics: Diag[] = []) {
    super(message);
    this.status = status;
    this.diagnostics = diagnostics;
  }
}

function cookie(name: string): string {
  const found = document.cookie.split('; ').find((c) => c.startsWith(name + '='));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
}

export function loginUrl(): string {
  return `/login/?next=${encodeURIComponent(window.location.pathname + window.location.search)}`;
}

/** An API error whose answer named the offending field and/or line (POST /import's 422). */
export class ApiFieldError extends ApiError {
  field: string | null;
  line: number | null;
  constructor(status: number, message: string, field: string | null, line: number | null, diagnostics: Diag[] = []) {
    super(status, message, diagnostics);
    this.field = field;
    this.line = line;
  }
}

function describeStatus(status: number): string {
  if (status === 404) return 'Not found: it may have been deleted.';
  if (status === 403) return 'You do not have access to this.';
  if (status >= 500) return `The server failed (HTTP ${status}). Try again in a moment.`;
  return `The request failed (HTTP ${status}).`;
}

/** The readable message of an error answer's body (`detail` as text or as a list of `{msg, loc}`). */
export function errorMessage(status: number, data: unknown): string {
  const obj = (typeof data === 'object' && data !== null ? data : {}) as { detail?: unknown };
  if (typeof obj.detail === 'string' && obj.detail.trim()) return obj.detail;
  if (Array.isArray(obj.detail) && obj.detail.length) {
    return obj.detail
      .map((d: unknown) => {
        if (typeof d === 'object' && d !== null && 'msg' in d) {
          const { msg, loc } = d as { msg: unknown; loc?: unknown };
          const where = Array.isArray(loc) ? loc.filter((p) => p !== 'body').join('.') : '';
          return where ? `${where}: ${String(msg)}` : String(msg);
        }
        return String(d);
      })
      .join('; ');
  }
  return describeStatus(status);
}

async function request<T>(method: string, path: string, body?: unknown, init?: RequestInit): Promise<T> {
  return (await exchange<T>(method, path, body, init)).data;
}

/** A request and its answer's body and headers (the list pages read their total and cursor there). */
async function exchange<T>(method: string, path: string, body?: unknown, init?: RequestInit): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (method !== 'GET') headers['X-CSRFToken'] = cookie('csrftoken');
  let res: Response;
  try {
    res = await fetch(API + path, { method, headers, body: payload, credentials: 'same-origin', ...init });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Cannot reach the server. Check that it is running, then try again.');
  }
  if (res.status === 401) {
    window.location.assign(loginUrl());
    throw new ApiError(401, 'Your session has ended. Please sign in again.');
  }
  if (res.status === 204) return { data: undefined as T, headers: res.headers ?? new Headers() };
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const obj = (typeof data === 'object' && data !== null ? data : {}) as { field?: unknown; line?: unknown; diagnostics?: unknown };
    const diagnostics = Array.isArray(obj.diagnostics) ? (obj.diagnostics as Diag[]) : [];
    const field = typeof obj.field === 'string' && obj.field ? obj.field : null;
    const line = typeof obj.line === 'number' ? obj.line : null;
    const message = errorMessage(res.status, data);
    if (field !== null || line !== null) throw new ApiFieldError(res.status, message, field, line, diagnostics);
    const error = new ApiError(res.status, message, diagnostics);
    if (res.status === 429) {
      const body = data as { retryAfterSeconds?: unknown; limit?: unknown } | null;
      const header = Number(res.headers?.get?.('Retry-After'));
      const wait = typeof body?.retryAfterSeconds === 'number' ? body.retryAfterSeconds : Number.isFinite(header) && header > 0 ? header : null;
      error.retryAfterSeconds = wait;
      error.limit = typeof body?.limit === 'string' ? body.limit : null;
    }
    throw error;
  }
  return { data: data as T, headers: res.headers ?? new Headers() };
}

/** A JSON request to an endpoint without a method on `api` below (the importers, the gallery). */
export function requestJson<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return request<T>(method, path, body, { signal });
}

export interface SaveBody {
  document?: WorkflowDoc;
  source?: string;
  name?: string;
  layout?: Layout;
  /** On create: the workspace to make it in (absent: the personal one). */
  workspace_id?: number;
}

/** `?workspace=ID` (or nothing) for the endpoints that list or judge by workspace. */
function inWorkspace(workspace: number | null | undefined, more = ''): string {
  const parts = [workspace ? `workspace=${workspace}` : '', more].filter(Boolean);
  return parts.length ? `?${parts.join('&')}` : '';
}

export interface StartRunBody {
  workflow_id: number;
  version?: number;
  provider: 'simulated' | 'openai' | 'anthropic';
  model?: string;
  script?: JsonObject | string;
  budgets?: Budgets;
  /** Run-time stop rules and error policy (not part of the document). */
  policies?: RunPolicies;
  /** Start the workspace from an uploaded zip (POST /uploads' id). */
  workspace_upload?: string;
  /** Start the workspace from the files an earlier run ended with (its id). */
  workspace_from_run?: string;
  /** Tool names whose calls wait for a person to approve them. */
  ask_before?: string[];
}

/** Where a run's workspace lives in the API. */
function runWorkspace(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}/workspace`;
}

/** The zip of a run's workspace files: a plain download link. */
export function workspaceZipUrl(runId: string): string {
  return `${API}${runWorkspace(runId)}.zip`;
}

/** A page of a run's events (GET /runs/{id}/events): after or before a seq, of some types, of one step and what runs in it. */
export interface EventPageQuery {
  after?: number;
  /** The newest `limit` events before this seq (still in seq order). */
  before?: number;
  limit?: number;
  types?: readonly string[];
  step?: string;
}

function eventPageParams(q: EventPageQuery): string {
  const parts = [`after=${q.after ?? 0}`];
  if (q.limit !== undefined) parts.push(`limit=${q.limit}`);
  if (q.before !== undefined) parts.push(`before=${q.before}`);
  if (q.types?.length) parts.push(`type=${q.types.map(encodeURIComponent).join(',')}`);
  if (q.step) parts.push(`step=${encodeURIComponent(q.step)}`);
  return parts.join('&');
}

/** One forEach item (`index`) or one repeat-until round (`iteration`) of a loop. */
export type LoopPosition = { index: number } | { iteration: number };

export const api = {
  me: () => request<{ username: string }>('GET', '/me'),
  validate: (body: ({ source: string } | { document: WorkflowDoc }) & { workflow_id?: number }, signal?: AbortSignal) =>
    request<ValidateResult>('POST', '/validate', body, { signal }),
  render: (body: { document: WorkflowDoc; format: 'yaml' | 'json'; source?: string }, signal?: AbortSignal) =>
    request<{ text: string }>('POST', '/render', body, { signal }),
  listWorkflows: (workspace?: number | null) => request<WorkflowSummary[]>('GET', `/workflows${inWorkspace(workspace)}`),
  /** A page of the workflows list: searched, filtered, with the total that match. */
  workflowPage: async (query: WorkflowListQuery, signal?: AbortSignal): Promise<ListPage<WorkflowSummary>> => {
    const { data, headers } = await exchange<WorkflowSummary[]>('GET', `/workflows${workflowListParams(query)}`, undefined, { signal });
    return pageOf(data, headers);
  },
  getWorkflow: (id: number) => request<Workflow>('GET', `/workflows/${id}`),
  createWorkflow: (body: SaveBody) => request<Workflow>('POST', '/workflows', body),
  saveWorkflow: (id: number, body: SaveBody) => request<Workflow>('PUT', `/workflows/${id}`, body),
  deleteWorkflow: (id: number) => request<void>('DELETE', `/workflows/${id}`),
  duplicateWorkflow: (id: number) => request<Workflow>('POST', `/workflows/${id}/duplicate`),
  versions: (id: number) => request<VersionInfo[]>('GET', `/workflows/${id}/versions`),
  version: (id: number, n: number) => request<Workflow>('GET', `/workflows/${id}/versions/${n}`),
  /** Version n's document saved again as the new latest version; answers that new version. */
  restoreVersion: (id: number, n: number) => request<Workflow>('POST', `/workflows/${id}/versions/${n}/restore`),
  importFile: (file: File, into?: number, workspace?: number | null) => {
    const form = new FormData();
    form.append('file', file);
    if (into !== undefined) form.append('into', String(into));
    else if (workspace) form.append('workspace', String(workspace));
    return request<Workflow>('POST', '/workflows/import', form);
  },
  moveWorkflow: (id: number, workspaceId: number) => request<Workflow>('POST', `/workflows/${id}/move`, { workspace_id: workspaceId }),
  startRun: (body: StartRunBody) => request<Run>('POST', '/runs', body),
  listRuns: (workflow?: number, workspace?: number | null) =>
    request<Run[]>('GET', `/runs${inWorkspace(workspace, workflow ? `workflow=${workflow}` : '')}`),
  /** A page of the runs list: filtered, with the total that match and the next page's cursor. */
  runPage: async (query: RunListQuery, signal?: AbortSignal): Promise<ListPage<Run>> => {
    const { data, headers } = await exchange<Run[]>('GET', `/runs${runListParams(query)}`, undefined, { signal });
    return pageOf(data, headers);
  },
  getRun: (id: string) => request<Run>('GET', `/runs/${id}`),
  runEvents: (id: string, after = 0) => request<RunEvent[]>('GET', `/runs/${id}/events?after=${after}`),
  iterations: (id: string) => request<Iteration[]>('GET', `/runs/${id}/iterations`),
  eventPage: (id: string, query: EventPageQuery, signal?: AbortSignal) =>
    request<RunEvent[]>('GET', `/runs/${id}/events?${eventPageParams(query)}`, undefined, { signal }),
  loopIteration: (id: string, step: string, at: LoopPosition, signal?: AbortSignal) =>
    request<Iteration[]>(
      'GET',
      `/runs/${id}/iterations?step=${encodeURIComponent(step)}&${'index' in at ? `index=${at.index}` : `iteration=${at.iteration}`}`,
      undefined,
      { signal },
    ),
  metrics: (id: string) => request<JsonObject>('GET', `/runs/${id}/metrics`),
  control: (id: string, action: 'pause' | 'resume' | 'stop') => request<Run>('POST', `/runs/${id}/${action}`),
  providers: (workspace?: number | null) => request<ProviderInfo[]>('GET', `/providers${inWorkspace(workspace)}`),

  tools: () => request<ToolInfo[]>('GET', '/tools'),
  runWorkspace: (runId: string) => request<RunWorkspace>('GET', runWorkspace(runId)),
  snapshotFiles: (runId: string, n: number) => request<SnapshotFiles>('GET', `${runWorkspace(runId)}/snapshots/${n}/files`),
  snapshotFile: (runId: string, n: number, path: string) =>
    request<SnapshotFileContent>('GET', `${runWorkspace(runId)}/snapshots/${n}/file?path=${encodeURIComponent(path)}`),
  snapshotDiff: (runId: string, n: number) => request<SnapshotDiff>('GET', `${runWorkspace(runId)}/snapshots/${n}/diff`),
  approveToolCall: (runId: string, callId: string) =>
    request<{ status: ToolDecision }>('POST', `/runs/${encodeURIComponent(runId)}/tool-calls/${encodeURIComponent(callId)}/approve`),
  denyToolCall: (runId: string, callId: string, reason: string) =>
    request<{ status: ToolDecision }>('POST', `/runs/${encodeURIComponent(runId)}/tool-calls/${encodeURIComponent(callId)}/deny`, { reason }),
  uploadWorkspace: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return request<WorkspaceUpload>('POST', '/uploads', form);
  },

  workspaces: () => request<WorkspaceSummary[]>('GET', '/workspaces'),
  createWorkspace: (name: string) => request<WorkspaceDetail>('POST', '/workspaces', { name }),
  workspace: (id: number) => request<WorkspaceDetail>('GET', `/workspaces/${id}`),
  renameWorkspace: (id: number, name: string) => request<WorkspaceDetail>('PATCH', `/workspaces/${id}`, { name }),
  setMemberRole: (id: number, userId: number, role: Role) => request<WorkspaceDetail>('PUT', `/workspaces/${id}/members/${userId}`, { role }),
  removeMember: (id: number, userId: number) => request<void>('DELETE', `/workspaces/${id}/members/${userId}`),
  invitations: (id: number) => request<Invitation[]>('GET', `/workspaces/${id}/invitations`),
  invite: (id: number, body: { role: Role; email?: string; days?: number }) => request<NewInvitation>('POST', `/workspaces/${id}/invitations`, body),
  revokeInvitation: (id: number, invitationId: number) => request<void>('DELETE', `/workspaces/${id}/invitations/${invitationId}`),
  setLimits: (id: number, limits: WorkspaceLimits) => request<WorkspaceDetail>('PUT', `/workspaces/${id}/limits`, limits),
  setServerKeys: (id: number, granted: boolean) => request<WorkspaceDetail>('PUT', `/workspaces/${id}/server-keys`, { granted }),
  workspaceKeys: (id: number) => request<WorkspaceKey[]>('GET', `/workspaces/${id}/keys`),
  storeWorkspaceKey: (id: number, body: { provider: WorkspaceKey['provider']; api_key: string; base_url?: string }) =>
    request<WorkspaceKey[]>('PUT', `/workspaces/${id}/keys`, body),
  deleteWorkspaceKey: (id: number, provider: WorkspaceKey['provider']) => request<void>('DELETE', `/workspaces/${id}/keys/${provider}`),
  audit: (id: number) => request<AuditEntry[]>('GET', `/workspaces/${id}/audit`),
  usage: (id: number) => request<WorkspaceUsage>('GET', `/workspaces/${id}/usage`),
};

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

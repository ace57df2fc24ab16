// The browser's one door to the server (docs/api.md). Errors become ApiError
// with a readable message; a 401 sends the user to the login page.
import type { JsonObject, Layout, WorkflowDoc } from '../doc/types';
import type {
  Budgets,
  ProviderInfo,
  Diag,
  Iteration,
  Run,
  RunEvent,
  RunPolicies,
  ValidateResult,
  VersionInfo,
  Workflow,
  WorkflowSummary,
} from './types';

export const API = '/api/v1';

export class ApiError extends Error {
  status: number;
  diagnostics: Diag[];
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
  if (res.status === 204) return undefined as T;
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
    throw new ApiError(res.status, message, diagnostics);
  }
  return data as T;
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
}

export const api = {
  me: () => request<{ username: string }>('GET', '/me'),
  validate: (body: { source: string } | { document: WorkflowDoc }, signal?: AbortSignal) =>
    request<ValidateResult>('POST', '/validate', body, { signal }),
  render: (body: { document: WorkflowDoc; format: 'yaml' | 'json'; source?: string }, signal?: AbortSignal) =>
    request<{ text: string }>('POST', '/render', body, { signal }),
  listWorkflows: () => request<WorkflowSummary[]>('GET', '/workflows'),
  getWorkflow: (id: number) => request<Workflow>('GET', `/workflows/${id}`),
  createWorkflow: (body: SaveBody) => request<Workflow>('POST', '/workflows', body),
  saveWorkflow: (id: number, body: SaveBody) => request<Workflow>('PUT', `/workflows/${id}`, body),
  deleteWorkflow: (id: number) => request<void>('DELETE', `/workflows/${id}`),
  duplicateWorkflow: (id: number) => request<Workflow>('POST', `/workflows/${id}/duplicate`),
  versions: (id: number) => request<VersionInfo[]>('GET', `/workflows/${id}/versions`),
  version: (id: number, n: number) => request<Workflow>('GET', `/workflows/${id}/versions/${n}`),
  importFile: (file: File, into?: number) => {
    const form = new FormData();
    form.append('file', file);
    if (into !== undefined) form.append('into', String(into));
    return request<Workflow>('POST', '/workflows/import', form);
  },
  startRun: (body: StartRunBody) => request<Run>('POST', '/runs', body),
  listRuns: (workflow?: number) => request<Run[]>('GET', workflow ? `/runs?workflow=${workflow}` : '/runs'),
  getRun: (id: string) => request<Run>('GET', `/runs/${id}`),
  runEvents: (id: string, after = 0) => request<RunEvent[]>('GET', `/runs/${id}/events?after=${after}`),
  iterations: (id: string) => request<Iteration[]>('GET', `/runs/${id}/iterations`),
  metrics: (id: string) => request<JsonObject>('GET', `/runs/${id}/metrics`),
  control: (id: string, action: 'pause' | 'resume' | 'stop') => request<Run>('POST', `/runs/${id}/${action}`),
  providers: () => request<ProviderInfo[]>('GET', '/providers'),
};

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

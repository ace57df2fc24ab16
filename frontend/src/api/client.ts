// The browser's one door to the server (docs/api.md). Every call goes through `client`, built by openapi-fetch on
// the generated `paths` (openapi.gen.ts): each path, its parameters, its body and its answer are checked against
// the OpenAPI document. Errors become ApiError with a readable message; a 401 sends the user to the login page.
import createClient, { type Middleware } from 'openapi-fetch';
import type { JsonObject, Layout, WorkflowDoc } from '../doc/types';
import type { RunEvent } from './events.gen';
import type { BreakpointsOut, DebugIn, DebugOut, ForkIn, KeyIn, paths, RenderIn, RunEventOut } from './openapi.gen';
import type {
  AuditEntry,
  Budgets,
  Diag,
  Invitation,
  Iteration,
  JudgeAgreement,
  ModelChoice,
  NewInvitation,
  Pin,
  PlaygroundApplied,
  PlaygroundInputs,
  PlaygroundTry,
  ProviderInfo,
  PermissionsBody,
  ProviderName,
  RescoreBody,
  Rescored,
  Role,
  Run,
  RunPolicies,
  RunWorkspace,
  SnapshotDiff,
  SnapshotFileContent,
  SnapshotFiles,
  ThinkingLevel,
  ToolDecisionAnswer,
  ToolInfo,
  TraceTest,
  ValidateResult,
  VersionInfo,
  Workflow,
  WorkflowSummary,
  WorkspaceDetail,
  WorkspaceKey,
  WorkspaceLimits,
  WorkspaceSummary,
  WorkspaceTracing,
  WorkspaceTracingChange,
  WorkspaceUpload,
  WorkspaceUsage,
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

/** The ApiError an error answer makes: its message, the diagnostics, the field and line, a 429's limit and wait. */
function errorOf(status: number, data: unknown, headers: Pick<Headers, 'get'>): ApiError {
  const obj = (typeof data === 'object' && data !== null ? data : {}) as { field?: unknown; line?: unknown; diagnostics?: unknown };
  const diagnostics = Array.isArray(obj.diagnostics) ? (obj.diagnostics as Diag[]) : [];
  const field = typeof obj.field === 'string' && obj.field ? obj.field : null;
  const line = typeof obj.line === 'number' ? obj.line : null;
  const message = errorMessage(status, data);
  if (field !== null || line !== null) return new ApiFieldError(status, message, field, line, diagnostics);
  const error = new ApiError(status, message, diagnostics);
  if (status === 429) {
    const body = data as { retryAfterSeconds?: unknown; limit?: unknown } | null;
    const header = Number(headers.get('Retry-After'));
    error.retryAfterSeconds = typeof body?.retryAfterSeconds === 'number' ? body.retryAfterSeconds : Number.isFinite(header) && header > 0 ? header : null;
    error.limit = typeof body?.limit === 'string' ? body.limit : null;
  }
  return error;
}

/** What every call shares: the session's CSRF token on writes, the login page on a 401, a readable network failure. */
const session: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET') request.headers.set('X-CSRFToken', cookie('csrftoken'));
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401) {
      window.location.assign(loginUrl());
      throw new ApiError(401, 'Your session has ended. Please sign in again.');
    }
    return response;
  },
  onError({ error }) {
    // An abort is the caller's own doing: it goes back as it is (returning nothing rethrows it).
    if (error instanceof DOMException && error.name === 'AbortError') return;
    return new ApiError(0, 'Cannot reach the server. Check that it is running, then try again.');
  },
};

/** The typed client: `paths` already start with /api/v1. */
export const client = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  headers: { Accept: 'application/json' },
  // Looked up at each call rather than once here, so whatever `fetch` is at the time answers (a test's fake too).
  fetch: (request) => globalThis.fetch(request),
});
client.use(session);

/** What a call of `client` comes back with: the answer's body (`data`) or, for an error status, `error`. */
type Outcome = { data?: unknown; error?: unknown; response: Response };

/** A call's body and headers (the list pages read their total and cursor there); an error status throws its ApiError. */
async function exchange<O extends Outcome>(call: Promise<O>): Promise<{ data: Exclude<O['data'], undefined>; headers: Headers }> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOf(response.status, error, response.headers);
  // A 204 (or an empty answer) has no body: `data` is undefined, which only the void calls get.
  return { data: data as Exclude<O['data'], undefined>, headers: response.headers };
}

/** A typed call's body (`answer(client.GET(...))`); an error status throws its ApiError. */
export async function answer<O extends Outcome>(call: Promise<O>): Promise<Exclude<O['data'], undefined>> {
  return (await exchange(call)).data;
}

/** A call whose success has no body (204). */
async function done(call: Promise<Outcome>): Promise<void> {
  await exchange(call);
}

/** The multipart body a path's POST takes, as the OpenAPI document declares it. */
type MultipartOf<P extends keyof paths> = paths[P] extends { post: { requestBody: { content: { 'multipart/form-data': infer B } } } } ? B : never;

/**
 * A multipart body's fields as the OpenAPI document names and types them. openapi-typescript writes a file
 * (`format: binary`) as a required `string`: such a field is a Blob here. (The API's forms have no other required
 * text field; one would be refused here at compile time, not sent wrong.)
 */
type FormFields<B> = { [K in keyof B]: B[K] extends string ? Blob : B[K] };

/** FormData of a multipart body's fields (the browser sets its content type and boundary); absent fields left out. */
function formData(body: unknown): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    form.append(name, value instanceof Blob ? value : String(value));
  }
  return form;
}

/** The body of a multipart POST to `path`, its fields checked against the path's form, and how it is sent: `client.POST(path, multipartBody(path, {...}))`. */
export function multipartBody<P extends keyof paths>(_path: P, fields: FormFields<MultipartOf<P>>) {
  return { body: fields as unknown as MultipartOf<P>, bodySerializer: formData };
}

/**
 * A JSON request to a path of the API without a method on `api` below, unchecked: `T` is what the caller says the
 * answer is. The session (CSRF, 401, network failure) and the errors are as for every other call. Prefer `api` or
 * a typed `client` call for a path the OpenAPI document has.
 */
export function requestJson<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const call = client.request as unknown as (method: string, url: string, init: { body?: unknown; signal?: AbortSignal }) => Promise<Outcome>;
  return answer(call(method, API + path, { body, signal })) as Promise<T>;
}

export interface SaveBody {
  document?: WorkflowDoc;
  source?: string;
  name?: string;
  layout?: Layout;
  /** On create: the workspace to make it in (absent: the personal one). */
  workspace_id?: number;
}

export interface StartRunBody {
  workflow_id: number;
  version?: number;
  provider: ProviderName;
  model?: string;
  /** `model` replaces every agent's and judge's own for this run (upstream's --model), not only a default. */
  model_override?: boolean;
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
  /** The run's coordinator (upstream's CLI modes); absent: narrate. */
  coordinator?: CoordinatorMode;
  /** The step agents get shared_memory_write / shared_memory_read. */
  shared_memory?: boolean;
  /** Which tools run, ask or never run (upstream's --allow, --deny, --strict, --sandbox, --yolo); absent: the default. */
  permissions?: PermissionsBody;
  /** The reasoning level asked of every agent and judge (upstream's --thinking); absent: the provider's default. */
  thinking?: ThinkingLevel;
  /** false: the workflow's pinned outputs are all off for this run (every step asks its model). */
  use_pins?: boolean;
  /** true: the workflow's breakpoints do not hold this run. */
  breakpoints_off?: boolean;
  /** Breakpoints for this run only, beside the workflow's (never saved with it). */
  breakpoints?: unknown[];
}

/** Edits tried on one step execution in the playground (absent: as recorded). */
export interface PlaygroundEdits {
  instructions?: string;
  system?: string;
  user?: string;
  model?: string;
  temperature?: number;
}

/** What a run's coordinator does: narrate (the default), forward and sum up only, or nothing at all. */
export type CoordinatorMode = 'narrate' | 'summary-only' | 'off';

/** The zip of a run's workspace files: a plain download link. */
export function workspaceZipUrl(runId: string): string {
  return `${API}/runs/${encodeURIComponent(runId)}/workspace.zip`;
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

/** One forEach item (`index`) or one repeat-until round (`iteration`) of a loop. */
export type LoopPosition = { index: number } | { iteration: number };

/** `workspace` as the lists take it: absent rather than 0 or null. */
const inWorkspace = (workspace: number | null | undefined) => workspace || undefined;

/**
 * The events as their contract types them: the OpenAPI document declares an event's envelope only (RunEventOut,
 * open to more keys); events.gen.ts, generated from the same contract (runtime/contract.py), declares each type.
 */
async function contractEvents(call: Promise<RunEventOut[]>): Promise<RunEvent[]> {
  return (await call) as RunEvent[];
}

// The overrides of types.ts (each only narrows the generated schema, which `Narrowed` checks) are applied here,
// where an answer comes in: `as Promise<Run>` and the like.
export const api = {
  me: () => answer(client.GET('/api/v1/me')),
  validate: (body: ({ source: string } | { document: WorkflowDoc }) & { workflow_id?: number }, signal?: AbortSignal) =>
    answer(client.POST('/api/v1/validate', { body, signal })) as Promise<ValidateResult>,
  /** Any mapping as canonical YAML or JSON, valid or not (a saved version's document, the editor's). */
  render: (body: RenderIn, signal?: AbortSignal) =>
    answer(client.POST('/api/v1/render', { body, signal })),
  listWorkflows: (workspace?: number | null): Promise<WorkflowSummary[]> =>
    answer(client.GET('/api/v1/workflows', { params: { query: { workspace: inWorkspace(workspace) } } })),
  /** A page of the workflows list: searched, filtered, with the total that match. */
  workflowPage: async (query: WorkflowListQuery, signal?: AbortSignal): Promise<ListPage<WorkflowSummary>> => {
    const { data, headers } = await exchange(client.GET('/api/v1/workflows', { params: { query: workflowListParams(query) }, signal }));
    return pageOf(data, headers);
  },
  getWorkflow: (id: number): Promise<Workflow> => answer(client.GET('/api/v1/workflows/{workflow_id}', { params: { path: { workflow_id: id } } })),
  createWorkflow: (body: SaveBody): Promise<Workflow> => answer(client.POST('/api/v1/workflows', { body })),
  saveWorkflow: (id: number, body: SaveBody): Promise<Workflow> =>
    answer(client.PUT('/api/v1/workflows/{workflow_id}', { params: { path: { workflow_id: id } }, body })),
  deleteWorkflow: (id: number) => done(client.DELETE('/api/v1/workflows/{workflow_id}', { params: { path: { workflow_id: id } } })),
  duplicateWorkflow: (id: number): Promise<Workflow> =>
    answer(client.POST('/api/v1/workflows/{workflow_id}/duplicate', { params: { path: { workflow_id: id } } })),
  versions: (id: number): Promise<VersionInfo[]> => answer(client.GET('/api/v1/workflows/{workflow_id}/versions', { params: { path: { workflow_id: id } } })),
  version: (id: number, n: number): Promise<Workflow> =>
    answer(client.GET('/api/v1/workflows/{workflow_id}/versions/{number}', { params: { path: { workflow_id: id, number: n } } })),
  /** Version n's document saved again as the new latest version; answers that new version. */
  restoreVersion: (id: number, n: number): Promise<Workflow> =>
    answer(client.POST('/api/v1/workflows/{workflow_id}/versions/{number}/restore', { params: { path: { workflow_id: id, number: n } } })),
  importFile: (file: File, into?: number, workspace?: number | null): Promise<Workflow> =>
    answer(
      client.POST(
        '/api/v1/workflows/import',
        multipartBody('/api/v1/workflows/import', { file, ...(into !== undefined ? { into } : workspace ? { workspace } : {}) }),
      ),
    ),
  moveWorkflow: (id: number, workspaceId: number): Promise<Workflow> =>
    answer(client.POST('/api/v1/workflows/{workflow_id}/move', { params: { path: { workflow_id: id } }, body: { workspace_id: workspaceId } })),
  startRun: (body: StartRunBody) => answer(client.POST('/api/v1/runs', { body })) as Promise<Run>,
  /** A simulated script checked against a workflow (the editor's document, saved or not): its faults as an error, keys naming nothing as warnings. */
  checkScript: (script: string, document: unknown, signal?: AbortSignal) =>
    answer(client.POST('/api/v1/runs/script-check', { body: { script, document }, signal })),
  listRuns: (workflow?: number, workspace?: number | null) =>
    answer(client.GET('/api/v1/runs', { params: { query: { workspace: inWorkspace(workspace), workflow: workflow || undefined } } })) as Promise<Run[]>,
  /** A page of the runs list: filtered, with the total that match and the next page's cursor. */
  runPage: async (query: RunListQuery, signal?: AbortSignal): Promise<ListPage<Run>> => {
    const { data, headers } = await exchange(client.GET('/api/v1/runs', { params: { query: runListParams(query) }, signal }));
    return pageOf(data as Run[], headers);
  },
  getRun: (id: string) => answer(client.GET('/api/v1/runs/{run_id}', { params: { path: { run_id: id } } })) as Promise<Run>,
  runEvents: (id: string, after = 0) =>
    contractEvents(answer(client.GET('/api/v1/runs/{run_id}/events', { params: { path: { run_id: id }, query: { after } } }))),
  iterations: (id: string): Promise<Iteration[]> => answer(client.GET('/api/v1/runs/{run_id}/iterations', { params: { path: { run_id: id } } })),
  eventPage: (id: string, q: EventPageQuery, signal?: AbortSignal) =>
    contractEvents(
      answer(
        client.GET('/api/v1/runs/{run_id}/events', {
          params: {
            path: { run_id: id },
            query: { after: q.after ?? 0, limit: q.limit, before: q.before, type: q.types?.length ? q.types.join(',') : undefined, step: q.step || undefined },
          },
          signal,
        }),
      ),
    ),
  loopIteration: (id: string, step: string, at: LoopPosition, signal?: AbortSignal): Promise<Iteration[]> =>
    answer(client.GET('/api/v1/runs/{run_id}/iterations', { params: { path: { run_id: id }, query: { step, ...at } }, signal })),
  metrics: (id: string) => answer(client.GET('/api/v1/runs/{run_id}/metrics', { params: { path: { run_id: id } } })),
  /** Every key the run's agents wrote to shared memory, by namespace, with the step that wrote it last. */
  sharedMemory: (id: string) => answer(client.GET('/api/v1/runs/{run_id}/shared-memory', { params: { path: { run_id: id } } })),
  /** A new run from a point of this one, with what was edited (POST /runs/{id}/fork). */
  forkRun: (id: string, body: ForkIn) => answer(client.POST('/api/v1/runs/{run_id}/fork', { params: { path: { run_id: id } }, body })) as Promise<Run>,
  /** Pin what a step execution (or every execution of a round) gave in this finished run. */
  pinOutput: (runId: string, step: string): Promise<Pin[]> =>
    answer(client.POST('/api/v1/runs/{run_id}/pins', { params: { path: { run_id: runId } }, body: { step } })),
  listPins: (workflowId: number): Promise<Pin[]> => answer(client.GET('/api/v1/workflows/{workflow_id}/pins', { params: { path: { workflow_id: workflowId } } })),
  /** Clear the workflow's pins: all, or one step path and what lies under it. */
  clearPins: (workflowId: number, step?: string) =>
    answer(client.DELETE('/api/v1/workflows/{workflow_id}/pins', { params: { path: { workflow_id: workflowId }, query: { step } } })),
  /** The judge's agreement with the labels over the workflow's labelled runs (or one experiment's). */
  judgeAgreement: (workflowId: number, experiment: number | null): Promise<JudgeAgreement> =>
    answer(client.GET('/api/v1/workflows/{workflow_id}/judge-agreement', {
      params: { path: { workflow_id: workflowId }, query: { experiment: experiment ?? undefined } },
    })),
  /** The judge alone asked again on the labelled rounds, with a new prompt or model (editor or above). */
  rescoreJudge: (workflowId: number, body: RescoreBody): Promise<Rescored> =>
    answer(client.POST('/api/v1/workflows/{workflow_id}/judge-agreement/rescore', { params: { path: { workflow_id: workflowId } }, body })),
  playgroundInputs: (runId: string, step: string): Promise<PlaygroundInputs> =>
    answer(client.GET('/api/v1/runs/{run_id}/playground', { params: { path: { run_id: runId }, query: { step } } })),
  playgroundTry: (runId: string, step: string, edits: PlaygroundEdits): Promise<PlaygroundTry> =>
    answer(client.POST('/api/v1/runs/{run_id}/playground', { params: { path: { run_id: runId } }, body: { step, ...edits } })),
  playgroundApply: (runId: string, step: string, edits: Pick<PlaygroundEdits, 'instructions' | 'model' | 'temperature'>): Promise<PlaygroundApplied> =>
    answer(client.POST('/api/v1/runs/{run_id}/playground/apply', { params: { path: { run_id: runId } }, body: { step, ...edits } })),
  /** Two runs side by side, row by row (run/compare/compareData.ts narrows the answer). */
  compareRuns: (a: string, b: string, signal?: AbortSignal) =>
    answer(client.GET('/api/v1/runs/{run_id}/compare/{other_id}', { params: { path: { run_id: a, other_id: b } }, signal })),
  control: (id: string, action: 'pause' | 'resume' | 'stop') =>
    answer(client.POST('/api/v1/runs/{run_id}/{action}', { params: { path: { run_id: id, action } } })) as Promise<Run>,
  providers: (workspace?: number | null) =>
    answer(client.GET('/api/v1/providers', { params: { query: { workspace: inWorkspace(workspace) } } })) as Promise<ProviderInfo[]>,
  /** The models of the providers the workspace can use now, with prices: the agent inspector's picker. */
  models: (workspace?: number | null): Promise<ModelChoice[]> =>
    answer(client.GET('/api/v1/models', { params: { query: { workspace: inWorkspace(workspace) } } })),

  tools: (): Promise<ToolInfo[]> => answer(client.GET('/api/v1/tools')),
  runWorkspace: (runId: string): Promise<RunWorkspace> => answer(client.GET('/api/v1/runs/{run_id}/workspace', { params: { path: { run_id: runId } } })),
  snapshotFiles: (runId: string, n: number): Promise<SnapshotFiles> =>
    answer(client.GET('/api/v1/runs/{run_id}/workspace/snapshots/{number}/files', { params: { path: { run_id: runId, number: n } } })),
  snapshotFile: (runId: string, n: number, path: string): Promise<SnapshotFileContent> =>
    answer(client.GET('/api/v1/runs/{run_id}/workspace/snapshots/{number}/file', { params: { path: { run_id: runId, number: n }, query: { path } } })),
  snapshotDiff: (runId: string, n: number): Promise<SnapshotDiff> =>
    answer(client.GET('/api/v1/runs/{run_id}/workspace/snapshots/{number}/diff', { params: { path: { run_id: runId, number: n } } })),
  /** The workflow's breakpoints (kept beside it, never in its document), and all of them replaced. */
  breakpoints: (workflowId: number): Promise<BreakpointsOut> =>
    answer(client.GET('/api/v1/workflows/{workflow_id}/breakpoints', { params: { path: { workflow_id: workflowId } } })),
  setBreakpoints: (workflowId: number, breakpoints: unknown[]): Promise<BreakpointsOut> =>
    answer(client.PUT('/api/v1/workflows/{workflow_id}/breakpoints', { params: { path: { workflow_id: workflowId } }, body: { breakpoints } })),
  /** Breakpoints for one run, checked as POST /runs will (against `document`, a draft, when given); nothing stored. */
  checkBreakpoints: (workflowId: number, breakpoints: unknown[], document?: WorkflowDoc): Promise<BreakpointsOut> =>
    answer(
      client.POST('/api/v1/workflows/{workflow_id}/breakpoints/check', {
        params: { path: { workflow_id: workflowId } },
        body: { breakpoints, ...(document ? { document } : {}) },
      }),
    ),
  /** Where a run holds at a breakpoint, and a command for that hold (edit, continue, step, skip). */
  runHold: (runId: string, signal?: AbortSignal): Promise<DebugOut> =>
    answer(client.GET('/api/v1/runs/{run_id}/debug', { params: { path: { run_id: runId } }, signal })),
  debugRun: (runId: string, body: DebugIn): Promise<DebugOut> =>
    answer(client.POST('/api/v1/runs/{run_id}/debug', { params: { path: { run_id: runId } }, body })),
  approveToolCall: (runId: string, callId: string) =>
    answer(client.POST('/api/v1/runs/{run_id}/tool-calls/{call_id}/approve', { params: { path: { run_id: runId, call_id: callId } } })) as Promise<ToolDecisionAnswer>,
  denyToolCall: (runId: string, callId: string, reason: string) =>
    answer(
      client.POST('/api/v1/runs/{run_id}/tool-calls/{call_id}/deny', { params: { path: { run_id: runId, call_id: callId } }, body: { reason } }),
    ) as Promise<ToolDecisionAnswer>,
  uploadWorkspace: (file: File): Promise<WorkspaceUpload> =>
    answer(client.POST('/api/v1/uploads', multipartBody('/api/v1/uploads', { file }))),

  workspaces: (): Promise<WorkspaceSummary[]> => answer(client.GET('/api/v1/workspaces')),
  createWorkspace: (name: string): Promise<WorkspaceDetail> => answer(client.POST('/api/v1/workspaces', { body: { name } })),
  workspace: (id: number): Promise<WorkspaceDetail> => answer(client.GET('/api/v1/workspaces/{workspace_id}', { params: { path: { workspace_id: id } } })),
  renameWorkspace: (id: number, name: string): Promise<WorkspaceDetail> =>
    answer(client.PATCH('/api/v1/workspaces/{workspace_id}', { params: { path: { workspace_id: id } }, body: { name } })),
  setMemberRole: (id: number, userId: number, role: Role): Promise<WorkspaceDetail> =>
    answer(client.PUT('/api/v1/workspaces/{workspace_id}/members/{user_id}', { params: { path: { workspace_id: id, user_id: userId } }, body: { role } })),
  removeMember: (id: number, userId: number) =>
    done(client.DELETE('/api/v1/workspaces/{workspace_id}/members/{user_id}', { params: { path: { workspace_id: id, user_id: userId } } })),
  invitations: (id: number): Promise<Invitation[]> =>
    answer(client.GET('/api/v1/workspaces/{workspace_id}/invitations', { params: { path: { workspace_id: id } } })),
  invite: (id: number, body: { role: Role; email?: string; days?: number }) =>
    answer(client.POST('/api/v1/workspaces/{workspace_id}/invitations', { params: { path: { workspace_id: id } }, body })) as Promise<NewInvitation>,
  revokeInvitation: (id: number, invitationId: number) =>
    done(client.DELETE('/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}', { params: { path: { workspace_id: id, invitation_id: invitationId } } })),
  setLimits: (id: number, limits: WorkspaceLimits): Promise<WorkspaceDetail> =>
    answer(client.PUT('/api/v1/workspaces/{workspace_id}/limits', { params: { path: { workspace_id: id } }, body: limits })),
  setServerKeys: (id: number, granted: boolean): Promise<WorkspaceDetail> =>
    answer(client.PUT('/api/v1/workspaces/{workspace_id}/server-keys', { params: { path: { workspace_id: id } }, body: { granted } })),
  workspaceKeys: (id: number) =>
    answer(client.GET('/api/v1/workspaces/{workspace_id}/keys', { params: { path: { workspace_id: id } } })) as Promise<WorkspaceKey[]>,
  storeWorkspaceKey: (id: number, body: KeyIn) =>
    answer(client.PUT('/api/v1/workspaces/{workspace_id}/keys', { params: { path: { workspace_id: id } }, body })) as Promise<WorkspaceKey[]>,
  deleteWorkspaceKey: (id: number, provider: WorkspaceKey['provider']) =>
    done(client.DELETE('/api/v1/workspaces/{workspace_id}/keys/{provider}', { params: { path: { workspace_id: id, provider } } })),
  workspaceTracing: (id: number): Promise<WorkspaceTracing> =>
    answer(client.GET('/api/v1/workspaces/{workspace_id}/tracing', { params: { path: { workspace_id: id } } })),
  setWorkspaceTracing: (id: number, body: WorkspaceTracingChange): Promise<WorkspaceTracing> =>
    answer(client.PUT('/api/v1/workspaces/{workspace_id}/tracing', { params: { path: { workspace_id: id } }, body })),
  testWorkspaceTracing: (id: number): Promise<TraceTest> =>
    answer(client.POST('/api/v1/workspaces/{workspace_id}/tracing/test', { params: { path: { workspace_id: id } } })),
  audit: (id: number): Promise<AuditEntry[]> => answer(client.GET('/api/v1/workspaces/{workspace_id}/audit', { params: { path: { workspace_id: id } } })),
  usage: (id: number): Promise<WorkspaceUsage> => answer(client.GET('/api/v1/workspaces/{workspace_id}/usage', { params: { path: { workspace_id: id } } })),
};

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

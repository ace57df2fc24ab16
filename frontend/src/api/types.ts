// Shapes of docs/api.md, the HTTP and websocket contract.
import type { JsonObject, Layout, WorkflowDoc } from '../doc/types';

export type Severity = 'error' | 'warning';

export type StopRule = { kind: 'converged'; threshold?: number } | { kind: 'output_contains'; marker: string } | { kind: 'approval' };

/** Run-level policies (POST /runs `policies`): never part of the exported document. */
export interface RunPolicies {
  stop_rules: StopRule[];
  combine: 'any' | 'all';
  on_iteration_error: 'abort' | 'retry' | 'skip';
  /** Loop step ids the policies apply to; absent or empty: every loop. */
  loops?: string[];
}

export interface Diag {
  code: string;
  class: string;
  severity: Severity;
  path: string;
  message: string;
  line: number | null;
  column: number | null;
  hint?: string;
  /** A warning for the format (other runners accept the file) that no runner can run: it blocks Run. */
  blocks_run?: boolean;
}

/** The problems that keep a valid workflow from running (unparsable CEL). */
export function blockingRun(warnings: readonly Diag[]): Diag[] {
  return warnings.filter((d) => d.blocks_run);
}

export interface ValidateResult {
  valid: boolean;
  /** Valid, and nothing in it blocks a run. */
  runnable?: boolean;
  errors: Diag[];
  warnings: Diag[];
  document: WorkflowDoc | null;
  yaml: string | null;
  canonical: string | null;
  /** For each loop with inner steps, by JSON pointer: the inner steps whose output is an iteration's output. */
  iteration_outputs?: Record<string, string[]>;
}

export interface WorkflowSummary {
  id: number;
  name: string;
  version: number;
  valid: boolean;
  updated_at: string;
  /** The workspace it belongs to (absent from a server without workspaces). */
  workspace_id?: number;
  workspace_name?: string;
}

export interface Workflow extends WorkflowSummary {
  /** The caller's role in the workflow's workspace: what the editor lets them do ('' or absent: unknown). */
  role?: string;
  document: WorkflowDoc | null;
  source: string;
  layout: Layout | JsonObject | null;
  errors: Diag[];
  warnings: Diag[];
  iteration_outputs?: Record<string, string[]>;
  created_at: string;
}

export interface VersionInfo {
  version: number;
  created_at: string;
  valid: boolean;
}

// A run event is the contract's discriminated union (runtime/contract.py, generated into events.gen.ts).
import type { RunEvent, RunStatus } from './events.gen';
export type { RunEvent, RunStatus, Where } from './events.gen';

export interface Tokens {
  prompt: number;
  completion: number;
  total: number;
}

export interface Budgets {
  max_tokens?: number;
  max_cost_usd?: number;
  max_duration_s?: number;
  max_steps?: number;
}

export interface LoopSummary {
  rounds_completed: number;
  broke_early: boolean;
  break_reason: string | null;
}

export interface Run {
  /** A UUID. */
  id: string;
  workflow_id: number;
  workflow_name: string;
  /** The workspace the run belongs to, and who started it (a username). */
  workspace_id?: number;
  started_by?: string;
  version: number | null;
  status: RunStatus;
  reason: string | null;
  provider: string;
  model: string | null;
  budgets: Budgets | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Since when the run is paused (null while it is not), and how long its ended pauses lasted (absent: an older server). */
  paused_at?: string | null;
  paused_ms?: number;
  tokens: Tokens | null;
  cost_usd: number | null;
  /** Models whose price is not known: their calls are not in `cost_usd`. */
  unpriced_models?: string[];
  loops: Record<string, LoopSummary> | null;
  last_seq: number;
  /** The simulated provider's script the run was started with. */
  script?: JsonObject | string | null;
  policies?: RunPolicies | null;
  /** Tools whose calls waited for a person in this run. */
  ask_before?: string[];
  /** What the run's workspace started from (a fork: its parent's snapshot at the fork point). */
  workspace_seed?: { upload?: string; from_run?: string; snapshot?: number } | null;
  /** A fork's parent run (null: not a fork) and where it started in it (POST /runs/{id}/fork). */
  parent?: string | null;
  fork_point?: ForkPoint | null;
  /** The event a fork or a resumed run went on from (0: it started at the beginning), and how often it resumed. */
  start_seq?: number;
  resumes?: number;
}

/** Where a fork started in its parent: a step, a repeat-until round or a forEach item, after event `seq`. */
export interface ForkPoint {
  step: string;
  iteration?: number;
  kind: 'step' | 'round' | 'item';
  seq: number;
  inherited_events: number;
  /** What was changed for the fork: document, patch, input, provider, model, script. */
  edited?: string[];
}

/** A provider the run dialog offers, and whether a run can use it now (GET /providers). */
export interface ProviderInfo {
  name: 'simulated' | 'openai' | 'anthropic';
  label: string;
  ready: boolean;
  /** Where the key comes from: the workspace's own key, the server's (granted to the workspace), or none. */
  key_source: 'workspace' | 'account' | 'server' | null;
  needs_key: boolean;
}

/** With `batch=1` the server may send several events to a message (`events`). */
export type SocketMessage = { kind: 'event'; event: RunEvent } | { kind: 'events'; events: RunEvent[] } | { kind: 'run'; run: Run };

/** GET /runs/{id}/iterations: a forEach item (`index`) or a repeat-until round (`iteration`). */
export interface Iteration {
  step_id: string;
  /** A round's number; null for a forEach item. */
  iteration: number | null;
  index: number | null;
  item: unknown;
  status: string;
  content: string | null;
  result: unknown;
  verdict: unknown;
  /** The total tokens its turns used. */
  tokens: number | null;
  duration_ms: number | null;
}

// ---------------------------------------------------------------- workspaces (teams)

export type Role = 'owner' | 'admin' | 'editor' | 'runner' | 'viewer';

/** One of the user's workspaces (GET /workspaces): the switcher's options. */
export interface WorkspaceSummary {
  id: number;
  name: string;
  role: Role;
  personal: boolean;
}

export interface WorkspaceLimits {
  max_concurrent_runs: number | null;
  max_runs_per_day: number | null;
  max_tokens_per_day: number | null;
  max_cost_usd_per_day: number | null;
}

export interface WorkspaceMember {
  user_id: number;
  username: string;
  role: Role;
}

/** GET /workspaces/{id}. */
export interface WorkspaceDetail extends WorkspaceSummary {
  /** Whether runs here may spend the server's own provider keys (the server's owner decides). */
  server_keys: boolean;
  limits: WorkspaceLimits;
  members: WorkspaceMember[];
}

/** A pending invitation (its link is shown once, when made). */
export interface Invitation {
  id: number;
  email: string;
  role: Role;
  expires_at: string;
  created_by: string;
}

export interface NewInvitation {
  id: number;
  url: string;
  role: Role;
  email: string;
  expires_at: string;
}

/** A provider key stored for a workspace (never the key itself). */
export interface WorkspaceKey {
  provider: 'openai' | 'anthropic';
  set: boolean;
  base_url: string;
  stored_by: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  detail: unknown;
}

export type UsageKey = 'concurrent_runs' | 'runs_per_day' | 'tokens_per_day' | 'cost_usd_per_day';

export interface UsageRow {
  /** null: no limit. */
  limit: number | null;
  used: number;
  left: number | null;
}

/** GET /workspaces/{id}/usage: each limit with what is used and left; the daily ones reset at midnight UTC. */
export interface WorkspaceUsage {
  limits: Partial<Record<UsageKey, UsageRow>>;
  resets_in_s: number;
}

// ---------------------------------------------------------------- agent tools and the run workspace

/** A tool agents can be given (GET /tools): upstream's names first, then this server's own. */
export interface ToolInfo {
  name: string;
  description: string;
  /** Other runners of the format have it too (a workflow naming it stays portable). */
  upstream: boolean;
  /** A tool of an MCP server (the user's or the administrator's): the server's name. */
  mcp_server?: string;
  /** Its name on that server (`name` has the server's prefix when two tools' names clash). */
  mcp_name?: string;
}

/** One recorded moment of a run's workspace (GET /runs/{id}/workspace). */
export interface WorkspaceSnapshot {
  number: number;
  /** "start", "end", or the namespaced step id it follows ("build", "refine.2", "batch[3]"). */
  label: string;
  step_id: string | null;
  /** "run", or the step id of an `isolation: step` copy. */
  workspace: string;
  files: number;
  added: number;
  modified: number;
  removed: number;
  created: string;
  /** Taken by an attempt that a resume went on past: kept, like its events, but never the run's latest files. */
  superseded?: boolean;
}

/** GET /runs/{id}/workspace: how the run's tools were confined, and its snapshots. */
export interface RunWorkspace {
  sandbox: 'bwrap' | 'off';
  network: boolean;
  isolation: 'run' | 'step';
  ask_before: string[];
  uses_tools: boolean;
  snapshots: WorkspaceSnapshot[];
}

export interface SnapshotFile {
  path: string;
  size: number;
  /** false: too big to keep, its content cannot be shown. */
  stored: boolean;
}

export interface SnapshotFiles {
  snapshot: number;
  files: SnapshotFile[];
}

export interface SnapshotFileContent {
  path: string;
  size: number;
  /** null: binary, or not stored. */
  text: string | null;
  truncated: boolean;
}

export type FileChangeKind = 'added' | 'modified' | 'removed';

export interface FileChange {
  path: string;
  change: FileChangeKind;
  /** Unified diff text; null for a binary or unstored file. */
  diff: string | null;
  truncated: boolean;
}

/** GET /runs/{id}/workspace/snapshots/{n}/diff: the changes since the snapshot before it in the same workspace. */
export interface SnapshotDiff {
  snapshot: number;
  base: number | null;
  changes: FileChange[];
}

/** POST /uploads: a zip of files a run can start from. */
export interface WorkspaceUpload {
  id: string;
  files: number;
  bytes: number;
  /** The first 20 names. */
  names: string[];
}

export type ToolDecision = 'approved' | 'denied';

// The shapes of docs/api.md, the HTTP and websocket contract. Every answer the OpenAPI document describes is
// an alias of its generated schema (openapi.gen.ts, `make api-types`): change the server's Schema and regenerate,
// never copy a shape here. A few overrides narrow what the server declares as an open dict or a plain string
// where the UI relies on more; each says why. Only what the OpenAPI document does not describe is written by
// hand below (socket messages, the shapes inside those open dicts). types.test.ts keeps copies from coming back.
import type { JsonObject, WorkflowDoc } from '../doc/types';
import type {
  AgreementOut,
  AuditEntryOut,
  DiagnosticOut,
  FileChangeOut,
  InvitationOut,
  IterationOut,
  KeyIn,
  MemberOut,
  ModelOut,
  PendingInvitationOut,
  PinOut,
  PlaygroundApplyOut,
  PlaygroundInputsOut,
  PlaygroundTryOut,
  ProviderOut,
  RescoreIn,
  RescoreOut,
  RunOut,
  RunWorkspaceOut,
  SnapshotDiffOut,
  SnapshotFileContentOut,
  SnapshotFileOut,
  SnapshotFilesOut,
  SnapshotOut,
  TokensOut,
  TraceTestOut,
  TracingIn,
  TracingOut,
  ToolDecisionOut,
  ToolOut,
  UploadOut,
  UsageLimitsOut,
  UsageOut,
  UsageRowOut,
  ValidationOut,
  VersionSummary,
  WorkflowOut,
  WorkflowSummary as WorkflowSummaryOut,
  WorkspaceKeyOut,
  WorkspaceLimitsOut,
  WorkspaceLinkOut,
  WorkspaceOut,
  WorkspaceSummaryOut,
} from './openapi.gen';

// A run event is the contract's discriminated union (runtime/contract.py, generated into events.gen.ts); the
// OpenAPI document only has its envelope (RunEventOut).
import type { RunEvent } from './events.gen';
export type { RunEvent, RunStatus, Where } from './events.gen';

/**
 * `Schema` with some fields narrowed (an override). Each field must exist in the schema and its new type must be
 * assignable to the server's: an override can only say more than the OpenAPI document, never something else, so
 * a change on the server that contradicts it fails to compile here.
 */
export type Narrowed<Schema, Fields extends { [K in keyof Fields]: K extends keyof Schema ? Schema[K] : never }> = Omit<Schema, keyof Fields> & Fields;

// ---------------------------------------------------------------- documents and workflows

export type Diag = DiagnosticOut;
export type Severity = Diag['severity'];

/** The problems that keep a valid workflow from running (unparsable CEL). */
export function blockingRun(warnings: readonly Diag[]): Diag[] {
  return warnings.filter((d) => d.blocks_run);
}

/** POST /validate. Override: the server declares `document` an open dict; it is the parsed workflow document. */
export type ValidateResult = Narrowed<ValidationOut, { document?: WorkflowDoc | null }>;

export type WorkflowSummary = WorkflowSummaryOut;

/** GET /workflows/{id} and the saves: `document` and `layout` stay open dicts (a draft's document may be any mapping; read them with isObject / isLayout). */
export type Workflow = WorkflowOut;

export type VersionInfo = VersionSummary;

// ---------------------------------------------------------------- runs

export type Tokens = TokensOut;

/** What a run may spend (POST /runs `budgets`); every one optional. */
export type Budgets = {
  max_tokens?: number;
  max_cost_usd?: number;
  max_duration_s?: number;
  max_steps?: number;
};

/** One loop's state in a run's `loops` (more keys may come; these are the ones read). */
export type LoopSummary = {
  rounds_completed: number;
  broke_early: boolean;
  break_reason: string | null;
};

export type StopRule = { kind: 'converged'; threshold?: number } | { kind: 'output_contains'; marker: string } | { kind: 'approval' };

/** POST /runs `permissions` (runtime/tools/permissions.py): upstream's --allow, --deny, --strict, --sandbox, --yolo. */
export type PermissionsBody = {
  allow?: string[];
  deny?: string[];
  strict?: boolean;
  sandbox?: boolean;
  yolo?: boolean;
};

/** POST /runs `thinking` (runtime/providers/thinking.py): upstream's --thinking levels. */
export type ThinkingLevel = 'off' | 'low' | 'medium' | 'high';

/** Run-level policies (POST /runs `policies`): never part of the exported document. */
export type RunPolicies = {
  stop_rules: StopRule[];
  combine: 'any' | 'all';
  on_iteration_error: 'abort' | 'retry' | 'skip';
  /** Loop step ids the policies apply to; absent or empty: every loop. */
  loops?: string[];
};

/** Where a fork started in its parent: a step, a repeat-until round or a forEach item, after event `seq`. */
export type ForkPoint = {
  step: string;
  iteration?: number;
  kind: 'step' | 'round' | 'item';
  seq: number;
  inherited_events: number;
  /** What was changed for the fork: document, patch, input, provider, model, script. */
  edited?: string[];
};

/** Why and where a run last went on after losing its worker (runtime/engine/resume_points.py); `from_seq` its boundary event. */
export type ResumeInfo = {
  reason: string;
  attempt: number;
  of: number;
  from_seq: number;
  /** The round, item or step that had ended there (`iteration` 0-based, as a fork point's); null: the run's start. */
  after: Pick<ForkPoint, 'step' | 'iteration' | 'kind'> | null;
};

/** What a run's workspace started from: an upload, or the files an earlier run ended with (a fork: at a snapshot). */
export type WorkspaceSeed = { upload?: string; from_run?: string; snapshot?: number };

/**
 * A run (GET /runs/{id}, the lists, the run socket). Override: the server declares `budgets`, `policies`,
 * `loops`, `workspace_seed` and `fork_point` open dicts (runtime/schemas.py RunOut: they pass through as stored)
 * and `script` as any value; these are the shapes it writes into them.
 */
export type Run = Narrowed<
  RunOut,
  {
  budgets: Budgets;
  policies: RunPolicies | null;
  loops: Record<string, LoopSummary>;
  workspace_seed: WorkspaceSeed | null;
  fork_point: ForkPoint | null;
  resumed: ResumeInfo | null;
    /** The simulated provider's script the run was started with (a mapping, or its YAML text). */
    script: JsonObject | string | null;
  }
>;

/** The providers a run can use (POST /runs `provider`): the simulated one and upstream's names (runtime/providers/catalog.py). */
export type ProviderName =
  | 'simulated'
  | 'openai'
  | 'anthropic'
  | 'google'
  | 'vertex'
  | 'bedrock'
  | 'azure'
  | 'azure-deployment'
  | 'mistral'
  | 'groq'
  | 'deepseek'
  | 'openrouter'
  | 'ollama'
  | 'xai'
  | 'together'
  | 'fireworks'
  | 'cerebras';

/**
 * A provider the run dialog offers (GET /providers). Override: the server declares `name` a string; it is one
 * of the providers POST /runs takes.
 */
export type ProviderInfo = Narrowed<ProviderOut, { name: ProviderName }>;

/** A model the editor's picker offers (GET /models): named as an agent's `model` takes it, with its prices. */
export type ModelChoice = ModelOut;

/** With `batch=1` the server may send several events to a message (`events`). */
export type SocketMessage = { kind: 'event'; event: RunEvent } | { kind: 'events'; events: RunEvent[] } | { kind: 'run'; run: Run };

/** GET /runs/{id}/iterations: a forEach item (`index`) or a repeat-until round (`iteration`). */
export type Iteration = IterationOut;

// ---------------------------------------------------------------- workspaces (teams)

export type Role = WorkspaceSummaryOut['role'];

export type WorkspaceSummary = WorkspaceSummaryOut;
export type WorkspaceLimits = WorkspaceLimitsOut;
export type WorkspaceMember = MemberOut;
export type WorkspaceDetail = WorkspaceOut;
export type Invitation = PendingInvitationOut;

/** A new invitation (its link is shown once). Override: the server declares `role` a string; it is the role asked for. */
export type NewInvitation = Narrowed<InvitationOut, { role: Role }>;

/**
 * A provider key stored for a workspace (never the key itself), one row per provider that takes a key. Override:
 * the server declares `provider` a string; it is one of those KeyIn takes (PROVIDERS_WITH_KEYS).
 */
export type WorkspaceKey = Narrowed<WorkspaceKeyOut, { provider: KeyIn['provider'] }>;

export type AuditEntry = AuditEntryOut;

export type UsageKey = keyof UsageLimitsOut;
export type UsageRow = UsageRowOut;
export type WorkspaceUsage = UsageOut;

/** Where the workspace's runs send their traces and how their pages link them (header names, never values). */
export type WorkspaceTracing = TracingOut;
/** A change of them: `headers` null keeps the stored ones, '' clears them. */
export type WorkspaceTracingChange = TracingIn;
/** A test span sent to the workspace's own collector: whether it took it, and why not. */
export type TraceTest = TraceTestOut;

// ---------------------------------------------------------------- pins and the playground (issue #33)

/** A pinned output of the workflow: runs take it instead of asking the model (runtime.runs.pins). */
export type Pin = PinOut;
/** A step execution's recorded inputs and output (runtime.runs.playground). */
export type PlaygroundInputs = PlaygroundInputsOut;
export type PlaygroundTry = PlaygroundTryOut;
export type PlaygroundApplied = PlaygroundApplyOut;

// ---------------------------------------------------------------- the judge on trial (issue #34)

/** The judge's verdicts against people's labels, per workflow version and over all (runtime.evals.judging). */
export type JudgeAgreement = AgreementOut;
/** The judge alone asked again on the labelled rounds: the agreement before and after (runtime.evals.rescoring). */
export type Rescored = RescoreOut;
export type RescoreBody = RescoreIn;

// ---------------------------------------------------------------- agent tools and the run workspace

export type ToolInfo = ToolOut;
export type WorkspaceSnapshot = SnapshotOut;
export type RunWorkspace = RunWorkspaceOut;
export type SnapshotFile = SnapshotFileOut;
export type SnapshotFiles = SnapshotFilesOut;
/** A symbolic link in a snapshot: its target as written, never followed. */
export type WorkspaceLink = WorkspaceLinkOut;
export type SnapshotFileContent = SnapshotFileContentOut;
export type FileChange = FileChangeOut;
export type FileChangeKind = FileChange['change'];
export type SnapshotDiff = SnapshotDiffOut;
export type WorkspaceUpload = UploadOut;

/** A person's answer to a tool call that waited for one. */
export type ToolDecision = 'approved' | 'denied';

/** POST /runs/{id}/tool-calls/{call}/approve and /deny. Override: the server declares `status` a string; it is the decision made. */
export type ToolDecisionAnswer = Narrowed<ToolDecisionOut, { status: ToolDecision }>;

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
}

export interface Workflow extends WorkflowSummary {
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

import type { RunStatus, Where } from './events.gen';
export type { RunStatus, Where } from './events.gen';

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
  version: number | null;
  status: RunStatus;
  reason: string | null;
  provider: string;
  model: string | null;
  budgets: Budgets | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  tokens: Tokens | null;
  cost_usd: number | null;
  /** Models whose price is not known: their calls are not in `cost_usd`. */
  unpriced_models?: string[];
  loops: Record<string, LoopSummary> | null;
  last_seq: number;
  /** The simulated provider's script the run was started with. */
  script?: JsonObject | string | null;
  policies?: RunPolicies | null;
}

/** A provider the run dialog offers, and whether a run can use it now (GET /providers). */
export interface ProviderInfo {
  name: 'simulated' | 'openai' | 'anthropic';
  label: string;
  ready: boolean;
  key_source: 'account' | 'server' | null;
  needs_key: boolean;
}

export interface RunEvent {
  type: string;
  seq: number;
  timestamp?: string;
  runId?: string | number;
  stepId?: string;
  agent?: string;
  message?: string;
  duration?: string;
  /** The same duration in milliseconds: read this, never parse `duration`. */
  durationMs?: number;
  tokens?: Tokens;
  error?: string;
  data?: JsonObject;
  delta?: string;
  done?: boolean;
  reasoning?: string;
  /** For a step inside a loop iteration or an include: the structure of its namespaced `stepId`. */
  where?: Where;
}

/** With `batch=1` the server may send several events to a message (`events`). */
export type SocketMessage = { kind: 'event'; event: RunEvent } | { kind: 'events'; events: RunEvent[] } | { kind: 'run'; run: Run };

export interface Iteration {
  step_id: string;
  iteration: number;
  index: number | null;
  item: unknown;
  status: string;
  content: string | null;
  result: unknown;
  verdict: unknown;
  tokens: Tokens | null;
  duration_ms: number | null;
}

// Generated from runtime/contract.py by `make contract`. Do not edit: change the contract and regenerate.

/** Every status a run, a step, an iteration or a judge call can have. */
export type Status = "queued" | "running" | "paused" | "completed" | "failed" | "skipped" | "cancelled";
export type RunStatus = "queued" | "running" | "paused" | "completed" | "failed" | "cancelled";
export const RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "paused", "completed", "failed", "cancelled"];
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "paused"];
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ["completed", "failed", "cancelled"];
export type EventType = "workflow_start" | "workflow_end" | "step_start" | "step_end" | "step_skipped" | "error" | "agent_turn" | "tool_call" | "tool_approval" | "workspace_snapshot" | "message" | "output" | "iteration_start" | "iteration_end" | "judge_verdict" | "loop_end" | "run_control";

export interface Where {
  loop?: string | null;
  iteration?: number | null;
  item?: number | null;
  inner?: string | null;
  include?: string | null;
}

export interface Tokens {
  prompt: number;
  completion: number;
  total: number;
}

export interface Event {
  type: "workflow_start" | "workflow_end" | "step_start" | "step_end" | "step_skipped" | "error" | "agent_turn" | "tool_call" | "tool_approval" | "workspace_snapshot" | "message" | "output" | "iteration_start" | "iteration_end" | "judge_verdict" | "loop_end" | "run_control";
  seq: number;
  timestamp: string;
  runId: string;
  stepId?: string | null;
  agent?: string | null;
  agentId?: string | null;
  message?: string | null;
  duration?: string | null;
  durationMs?: number | null;
  tokens?: Tokens | null;
  error?: string | null;
  data?: Record<string, unknown> | null;
  delta?: string | null;
  done?: boolean | null;
  reasoning?: string | null;
  where?: Where | null;
  inherited?: boolean | null;
}

export interface WorkflowStartData {
  total: number;
  name?: string;
  provider?: string;
  budgets?: Record<string, number>;
  from_checkpoint?: number | null;
  [key: string]: unknown;
}

export interface WorkflowEndData {
  status: "completed" | "failed" | "cancelled";
  reason?: string;
  code?: string;
  cost_usd?: number;
  loops?: Record<string, Record<string, unknown>>;
  unpriced_models?: string[];
  [key: string]: unknown;
}

export interface StepStartData {
  index?: number | null;
  total?: number | null;
  loop_type?: "forEach" | "repeat-until" | null;
  items?: number | null;
  include?: string | null;
  [key: string]: unknown;
}

export interface StepEndData {
  status: "completed" | "failed" | "skipped" | "cancelled";
  content?: string | null;
  result?: unknown;
  attempts?: number | null;
  reason?: string | null;
  cost_usd?: number | null;
  [key: string]: unknown;
}

export interface StepSkippedData {
  status: "skipped";
  reason?: string;
  [key: string]: unknown;
}

export interface NoData {
  [key: string]: unknown;
}

export interface AgentTurnData {
  phase: "request" | "response";
  model?: string;
  turn?: number;
  provider?: string | null;
  content?: string | null;
  finish_reason?: string | null;
  cost_usd?: number | null;
  unpriced_model?: string | null;
  [key: string]: unknown;
}

export interface ToolCallData {
  phase: "start" | "end";
  tool_name: string;
  tool_call_id: string;
  input?: unknown;
  output?: unknown;
  truncated?: boolean;
  [key: string]: unknown;
}

export interface ToolApprovalData {
  phase: "asked" | "approved" | "denied" | "cancelled";
  tool_name: string;
  tool_call_id: string;
  input?: unknown;
  reason?: string | null;
  actor?: string | null;
  [key: string]: unknown;
}

export interface WorkspaceSnapshotData {
  snapshot: number;
  label: string;
  step_id?: string | null;
  workspace?: string;
  files?: number;
  added?: number;
  modified?: number;
  removed?: number;
  [key: string]: unknown;
}

export interface MessageData {
  level?: "info" | "warning" | "error";
  [key: string]: unknown;
}

export interface IterationStartData {
  iteration?: number | null;
  index?: number | null;
  item?: unknown;
  [key: string]: unknown;
}

export interface IterationEndData {
  iteration?: number | null;
  index?: number | null;
  item?: unknown;
  status: "completed" | "failed" | "skipped" | "cancelled";
  content?: string | null;
  [key: string]: unknown;
}

export interface JudgeVerdictData {
  iteration: number;
  done?: boolean | null;
  reason?: string | null;
  failed_open?: boolean;
  content?: string | null;
  duration_ms?: number | null;
  error?: string | null;
  result?: unknown;
  cost_usd?: number | null;
  [key: string]: unknown;
}

export interface LoopEndData {
  rounds_completed: number;
  broke_early?: boolean;
  break_reason?: string | null;
  content?: string | null;
  stop_rule?: string | null;
  loop_type?: "forEach" | "repeat-until" | null;
  [key: string]: unknown;
}

export interface RunControlData {
  action: "pause" | "resume" | "stop";
  actor?: string | null;
  [key: string]: unknown;
}

/** The `data` each event type carries. */
export interface EventData {
  workflow_start: WorkflowStartData;
  workflow_end: WorkflowEndData;
  step_start: StepStartData;
  step_end: StepEndData;
  step_skipped: StepSkippedData;
  error: NoData;
  agent_turn: AgentTurnData;
  tool_call: ToolCallData;
  tool_approval: ToolApprovalData;
  workspace_snapshot: WorkspaceSnapshotData;
  message: MessageData;
  output: NoData;
  iteration_start: IterationStartData;
  iteration_end: IterationEndData;
  judge_verdict: JudgeVerdictData;
  loop_end: LoopEndData;
  run_control: RunControlData;
}

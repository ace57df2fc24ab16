// Generated from runtime/contract.py by `make contract`. Do not edit: change the contract and regenerate.

/** Every status a run, a step, an iteration or a judge call can have. */
export type Status = "queued" | "running" | "paused" | "completed" | "partial" | "failed" | "skipped" | "cancelled";
export type RunStatus = "queued" | "running" | "paused" | "completed" | "partial" | "failed" | "cancelled";
export const RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "paused", "completed", "partial", "failed", "cancelled"];
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "paused"];
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ["completed", "partial", "failed", "cancelled"];
export type EventType = "workflow_start" | "workflow_end" | "plan_ready" | "step_start" | "step_end" | "step_skipped" | "error" | "agent_turn" | "tool_call" | "tool_approval" | "workspace_snapshot" | "message" | "output" | "iteration_start" | "iteration_end" | "judge_verdict" | "loop_end" | "run_control" | "breakpoint_hit" | "debug_action" | "message_sent" | "coordinator_message" | "agent_inbox_drain" | "coordinator_inbox_message" | "message_dropped" | "coordinator_narration" | "coordinator_synthesis" | "max_wake_cycles_warning";
/** What a field the contract leaves open holds: whatever JSON the server sent. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue | undefined };

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

export interface BreakpointData {
  id: string;
  kind: "step" | "round" | "judge" | "condition" | "tool";
  step?: string | null;
  round?: number | null;
  item?: number | null;
  done?: boolean | null;
  condition?: string | null;
  tool?: string | null;
  [key: string]: JsonValue | undefined;
}

export interface PlanEdge {
  source: string;
  target: string;
}

export interface PlanWorkflow {
  name?: string;
  steps: string[];
  edges?: PlanEdge[];
  scopes?: Record<string, Record<string, JsonValue>>;
}

export interface WorkflowStartData {
  total: number;
  name?: string;
  provider?: string;
  budgets?: Record<string, number>;
  from_checkpoint?: number | null;
  model_override?: string | null;
  thinking?: string | null;
  [key: string]: JsonValue | undefined;
}

export interface WorkflowEndData {
  status: "completed" | "partial" | "failed" | "cancelled";
  reason?: string;
  code?: string;
  cost_usd?: number;
  loops?: Record<string, Record<string, JsonValue>>;
  unpriced_models?: string[];
  summary?: string | null;
  [key: string]: JsonValue | undefined;
}

export interface PlanReadyData {
  workflow: PlanWorkflow;
}

export interface StepStartData {
  index?: number | null;
  total?: number | null;
  loop_type?: "forEach" | "repeat-until" | null;
  items?: number | null;
  include?: string | null;
  started_at?: string | null;
  carried_s?: number | null;
  [key: string]: JsonValue | undefined;
}

export interface StepEndData {
  status: "completed" | "failed" | "skipped" | "cancelled";
  content?: string | null;
  result?: JsonValue;
  attempts?: number | null;
  reason?: string | null;
  cost_usd?: number | null;
  [key: string]: JsonValue | undefined;
}

export interface StepSkippedData {
  status: "skipped";
  reason?: string;
  [key: string]: JsonValue | undefined;
}

export interface NoData {
  [key: string]: JsonValue | undefined;
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
  reasoning_tokens?: number | null;
  reasoning?: string | null;
  pinned?: boolean | null;
  [key: string]: JsonValue | undefined;
}

export interface ToolCallData {
  phase: "start" | "end";
  tool_name: string;
  tool_call_id: string;
  input?: JsonValue;
  output?: JsonValue;
  truncated?: boolean;
  waited_ms?: number | null;
  [key: string]: JsonValue | undefined;
}

export interface ToolApprovalData {
  phase: "asked" | "approved" | "denied" | "cancelled";
  tool_name: string;
  tool_call_id: string;
  input?: JsonValue;
  reason?: string | null;
  actor?: string | null;
  [key: string]: JsonValue | undefined;
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
  [key: string]: JsonValue | undefined;
}

export interface MessageData {
  level?: "info" | "warning" | "error";
  [key: string]: JsonValue | undefined;
}

export interface IterationStartData {
  iteration?: number | null;
  index?: number | null;
  item?: JsonValue;
  [key: string]: JsonValue | undefined;
}

export interface IterationEndData {
  iteration?: number | null;
  index?: number | null;
  item?: JsonValue;
  status: "completed" | "failed" | "skipped" | "cancelled";
  content?: string | null;
  [key: string]: JsonValue | undefined;
}

export interface JudgeVerdictData {
  iteration: number;
  done?: boolean | null;
  reason?: string | null;
  failed_open?: boolean;
  content?: string | null;
  duration_ms?: number | null;
  error?: string | null;
  result?: JsonValue;
  cost_usd?: number | null;
  [key: string]: JsonValue | undefined;
}

export interface LoopEndData {
  rounds_completed: number;
  broke_early?: boolean;
  break_reason?: string | null;
  content?: string | null;
  stop_rule?: string | null;
  loop_type?: "forEach" | "repeat-until" | null;
  [key: string]: JsonValue | undefined;
}

export interface RunControlData {
  action: "pause" | "resume" | "stop";
  actor?: string | null;
  [key: string]: JsonValue | undefined;
}

export interface BreakpointHitData {
  breakpoint: BreakpointData;
  key: string;
  where: Record<string, JsonValue>;
  inputs: Record<string, JsonValue>;
  editable: string[];
  skippable: boolean;
  [key: string]: JsonValue | undefined;
}

export interface DebugActionData {
  action: "edit" | "continue" | "step" | "skip";
  key: string;
  actor?: string | null;
  field?: string | null;
  value?: JsonValue;
  path?: string | null;
  output?: string | null;
  result?: JsonValue;
  [key: string]: JsonValue | undefined;
}

export interface MessageSentData {
  id: string;
  sender: string;
  to: string;
  kind?: "info" | "context_update" | "cancel";
  text?: string;
  [key: string]: JsonValue | undefined;
}

export interface CoordinatorMessageData {
  id: string;
  sender?: string;
  to: string;
  kind?: "info" | "context_update" | "cancel";
  text?: string;
  [key: string]: JsonValue | undefined;
}

export interface AgentInboxDrainData {
  id: string;
  sender: string;
  kind?: "info" | "context_update" | "cancel";
  text?: string;
  turn?: number;
  [key: string]: JsonValue | undefined;
}

export interface CoordinatorInboxMessageData {
  source: "message" | "lifecycle";
  sender: string;
  text?: string;
  id?: string | null;
  event?: string | null;
  cycle?: number;
  [key: string]: JsonValue | undefined;
}

export interface MessageDroppedData {
  reason: "workflow-cancelled" | "target-terminal" | "unknown-step" | "mailbox-closed-by-finalize" | "max-wake-cycles" | "hold-timeout" | "mailbox-full" | "no-transcript" | "transcript-too-large" | "resume-shutdown" | "resolver-error";
  id: string;
  sender: string;
  to: string;
  kind?: "info" | "context_update" | "cancel";
  text?: string;
  [key: string]: JsonValue | undefined;
}

export interface CoordinatorNarrationData {
  text: string;
  cycle?: number;
  [key: string]: JsonValue | undefined;
}

export interface CoordinatorSynthesisData {
  summary: string;
  source?: "finalize" | "reply";
  [key: string]: JsonValue | undefined;
}

export interface MaxWakeCyclesWarningData {
  limit: number;
  dropped?: number;
  [key: string]: JsonValue | undefined;
}

/** The `data` each event type carries. */
export interface EventData {
  workflow_start: WorkflowStartData;
  workflow_end: WorkflowEndData;
  plan_ready: PlanReadyData;
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
  breakpoint_hit: BreakpointHitData;
  debug_action: DebugActionData;
  message_sent: MessageSentData;
  coordinator_message: CoordinatorMessageData;
  agent_inbox_drain: AgentInboxDrainData;
  coordinator_inbox_message: CoordinatorInboxMessageData;
  message_dropped: MessageDroppedData;
  coordinator_narration: CoordinatorNarrationData;
  coordinator_synthesis: CoordinatorSynthesisData;
  max_wake_cycles_warning: MaxWakeCyclesWarningData;
}

/** The envelope every event has, but `type` and `data`, which each event type narrows. */
export interface EventEnvelope {
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
  delta?: string | null;
  done?: boolean | null;
  reasoning?: string | null;
  where?: Where | null;
  inherited?: boolean | null;
  superseded?: boolean | null;
}

/** Any event, its `data` unchecked (the envelope the server checks before the data by type). */
export interface Event extends EventEnvelope {
  type: EventType;
  data?: Record<string, JsonValue> | null;
}

export interface WorkflowStartRunEvent extends EventEnvelope {
  type: "workflow_start";
  data?: WorkflowStartData | null;
}

export interface WorkflowEndRunEvent extends EventEnvelope {
  type: "workflow_end";
  data?: WorkflowEndData | null;
}

export interface PlanReadyRunEvent extends EventEnvelope {
  type: "plan_ready";
  data?: PlanReadyData | null;
}

export interface StepStartRunEvent extends EventEnvelope {
  type: "step_start";
  data?: StepStartData | null;
}

export interface StepEndRunEvent extends EventEnvelope {
  type: "step_end";
  data?: StepEndData | null;
}

export interface StepSkippedRunEvent extends EventEnvelope {
  type: "step_skipped";
  data?: StepSkippedData | null;
}

export interface ErrorRunEvent extends EventEnvelope {
  type: "error";
  data?: NoData | null;
}

export interface AgentTurnRunEvent extends EventEnvelope {
  type: "agent_turn";
  data?: AgentTurnData | null;
}

export interface ToolCallRunEvent extends EventEnvelope {
  type: "tool_call";
  data?: ToolCallData | null;
}

export interface ToolApprovalRunEvent extends EventEnvelope {
  type: "tool_approval";
  data?: ToolApprovalData | null;
}

export interface WorkspaceSnapshotRunEvent extends EventEnvelope {
  type: "workspace_snapshot";
  data?: WorkspaceSnapshotData | null;
}

export interface MessageRunEvent extends EventEnvelope {
  type: "message";
  data?: MessageData | null;
}

export interface OutputRunEvent extends EventEnvelope {
  type: "output";
  data?: NoData | null;
}

export interface IterationStartRunEvent extends EventEnvelope {
  type: "iteration_start";
  data?: IterationStartData | null;
}

export interface IterationEndRunEvent extends EventEnvelope {
  type: "iteration_end";
  data?: IterationEndData | null;
}

export interface JudgeVerdictRunEvent extends EventEnvelope {
  type: "judge_verdict";
  data?: JudgeVerdictData | null;
}

export interface LoopEndRunEvent extends EventEnvelope {
  type: "loop_end";
  data?: LoopEndData | null;
}

export interface RunControlRunEvent extends EventEnvelope {
  type: "run_control";
  data?: RunControlData | null;
}

export interface BreakpointHitRunEvent extends EventEnvelope {
  type: "breakpoint_hit";
  data?: BreakpointHitData | null;
}

export interface DebugActionRunEvent extends EventEnvelope {
  type: "debug_action";
  data?: DebugActionData | null;
}

export interface MessageSentRunEvent extends EventEnvelope {
  type: "message_sent";
  data?: MessageSentData | null;
}

export interface CoordinatorMessageRunEvent extends EventEnvelope {
  type: "coordinator_message";
  data?: CoordinatorMessageData | null;
}

export interface AgentInboxDrainRunEvent extends EventEnvelope {
  type: "agent_inbox_drain";
  data?: AgentInboxDrainData | null;
}

export interface CoordinatorInboxMessageRunEvent extends EventEnvelope {
  type: "coordinator_inbox_message";
  data?: CoordinatorInboxMessageData | null;
}

export interface MessageDroppedRunEvent extends EventEnvelope {
  type: "message_dropped";
  data?: MessageDroppedData | null;
}

export interface CoordinatorNarrationRunEvent extends EventEnvelope {
  type: "coordinator_narration";
  data?: CoordinatorNarrationData | null;
}

export interface CoordinatorSynthesisRunEvent extends EventEnvelope {
  type: "coordinator_synthesis";
  data?: CoordinatorSynthesisData | null;
}

export interface MaxWakeCyclesWarningRunEvent extends EventEnvelope {
  type: "max_wake_cycles_warning";
  data?: MaxWakeCyclesWarningData | null;
}

/** A run event: testing `type` narrows `data` to what that type carries. */
export type RunEvent =
  | WorkflowStartRunEvent
  | WorkflowEndRunEvent
  | PlanReadyRunEvent
  | StepStartRunEvent
  | StepEndRunEvent
  | StepSkippedRunEvent
  | ErrorRunEvent
  | AgentTurnRunEvent
  | ToolCallRunEvent
  | ToolApprovalRunEvent
  | WorkspaceSnapshotRunEvent
  | MessageRunEvent
  | OutputRunEvent
  | IterationStartRunEvent
  | IterationEndRunEvent
  | JudgeVerdictRunEvent
  | LoopEndRunEvent
  | RunControlRunEvent
  | BreakpointHitRunEvent
  | DebugActionRunEvent
  | MessageSentRunEvent
  | CoordinatorMessageRunEvent
  | AgentInboxDrainRunEvent
  | CoordinatorInboxMessageRunEvent
  | MessageDroppedRunEvent
  | CoordinatorNarrationRunEvent
  | CoordinatorSynthesisRunEvent
  | MaxWakeCyclesWarningRunEvent;

/** The event of one type (`RunEventOf<'step_end'>`). */
export type RunEventOf<T extends EventType> = Extract<RunEvent, { type: T }>;

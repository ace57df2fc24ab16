"""The run event contract: every event type, its fields, and the one status vocabulary.

An event is the zenflow NDJSON envelope (``type``, ``timestamp``, ``runId``,
``stepId``, ``agent``, ``duration``, ``tokens``, ``error``, ``data`` ...) plus
what this runner adds so that no reader ever parses a string back:

* ``seq``: the event's number in its run (replay and "nothing lost or repeated");
* ``durationMs``: beside the spec's Go-style ``duration``;
* ``where``: for a step inside a loop iteration or an include, the structure
  its namespaced ``stepId`` encodes (``refine.2.draft``: loop ``refine``,
  iteration 2, inner step ``draft``; ``batch[3]``: loop ``batch``, item 3;
  ``deploy.build``: include ``deploy``, inner step ``build``).

The models below are the truth for both ends: :mod:`runtime.events` stamps
the envelope, tests check every emitted event against :data:`EVENT_DATA`, and
``frontend/src/api/events.gen.ts`` is generated from this module
(``make contract``; a test fails when it is out of date).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict


class Status(StrEnum):
    """Every status a run, a step, an iteration or a judge call can have."""

    QUEUED = "queued"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    # A run only, as zenflow's runner says it: some steps completed and some failed (none completed: failed).
    PARTIAL = "partial"
    FAILED = "failed"
    SKIPPED = "skipped"
    CANCELLED = "cancelled"


RUN_STATUSES = (Status.QUEUED, Status.RUNNING, Status.PAUSED, Status.COMPLETED, Status.PARTIAL, Status.FAILED, Status.CANCELLED)
ACTIVE_RUN_STATUSES = (Status.QUEUED, Status.RUNNING, Status.PAUSED)
FINAL_RUN_STATUSES = (Status.COMPLETED, Status.PARTIAL, Status.FAILED, Status.CANCELLED)
STEP_END_STATUSES = (Status.COMPLETED, Status.FAILED, Status.SKIPPED, Status.CANCELLED)

StepEndStatus = Literal["completed", "failed", "skipped", "cancelled"]
RunEndStatus = Literal["completed", "partial", "failed", "cancelled"]


class _Open(BaseModel):
    # Readers skip what they do not know, and the engine may add detail: extra keys are allowed.
    model_config = ConfigDict(extra="allow")


# ---- where a step is ------------------------------------------------------


class Where(BaseModel):
    """The structure of a namespaced step id."""

    model_config = ConfigDict(extra="forbid")
    loop: Optional[str] = None        # the loop step (top-level id) this step runs inside
    iteration: Optional[int] = None   # repeat-until: zero-based iteration
    item: Optional[int] = None        # forEach: zero-based item index
    inner: Optional[str] = None       # the inner step's own id ('' or absent: the iteration itself)
    include: Optional[str] = None     # the include step this step came from


_IN_LOOP = re.compile(r"^(?P<loop>[^.\[\]]+)(?:\.(?P<iteration>\d+)|\[(?P<item>\d+)\])(?:\.(?P<inner>.+))?$")


@lru_cache(maxsize=4096)
def locate(step_id: str) -> dict[str, Any] | None:
    """``where`` for a namespaced step id, as a plain dict; None for a top-level step.

    The format writes loop iterations as ``loop.N`` (repeat-until) and
    ``loop[N]`` (forEach), and included steps as ``include.inner``. A step id
    never holds a dot or a bracket itself, so this reading is exact.
    """
    if not step_id or ("." not in step_id and "[" not in step_id):
        return None
    found = _IN_LOOP.match(step_id)
    if found:
        out: dict[str, Any] = {"loop": found["loop"]}
        if found["iteration"] is not None:
            out["iteration"] = int(found["iteration"])
        else:
            out["item"] = int(found["item"])
        if found["inner"]:
            out["inner"] = found["inner"]
        return out
    include, _, inner = step_id.partition(".")
    return {"include": include, "inner": inner}


# ---- what each event type carries in ``data`` -----------------------------


class Tokens(BaseModel):
    prompt: int
    completion: int
    total: int


class WorkflowStartData(_Open):
    total: int
    name: str = ""
    provider: str = ""
    budgets: dict[str, float] = {}
    from_checkpoint: Optional[int] = None  # the run started from the state after this seq (runtime.engine.checkpoints)
    model_override: Optional[str] = None  # every model of the run replaced by this one (upstream's --model)
    thinking: Optional[str] = None  # the reasoning level asked of every agent (upstream's --thinking)


class PlanEdge(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str   # the step depended on
    target: str   # the step that waits for it (its ``dependsOn`` names ``source``)


class PlanWorkflow(BaseModel):
    """The plan as upstream's ``plan_ready`` carries it in ``data.workflow``, with the dependency edges added."""

    model_config = ConfigDict(extra="forbid")  # closed, so the generated types nest it (an open one is JSON)
    name: str = ""
    steps: list[str]                 # the top-level step ids in topological order (ties in document order)
    edges: list[PlanEdge] = []       # every ``dependsOn`` between top-level steps, in the order of ``steps``
    # A loop step with inner steps: their own plan (the same keys), by the loop step's id.
    scopes: dict[str, dict[str, Any]] = {}


class PlanReadyData(BaseModel):
    """The loaded workflow is ready to execute (upstream's ``plan_ready``): emitted once per run, right after
    ``workflow_start``; a run that resumes or a fork that starts from a checkpoint does not emit it again."""

    model_config = ConfigDict(extra="forbid")
    workflow: PlanWorkflow


class WorkflowEndData(_Open):
    status: RunEndStatus
    reason: str = ""
    code: str = ""
    cost_usd: float = 0.0
    loops: dict[str, dict[str, Any]] = {}
    unpriced_models: list[str] = []
    summary: Optional[str] = None  # the coordinator's synthesis, when the run had one


class StepStartData(_Open):
    index: Optional[int] = None
    total: Optional[int] = None
    loop_type: Optional[Literal["forEach", "repeat-until"]] = None
    items: Optional[int] = None
    include: Optional[str] = None
    started_at: Optional[str] = None  # a step going on after a resume: when it first started
    carried_s: Optional[float] = None  # ... and the seconds it had worked before (its duration counts on from there)


class StepEndData(_Open):
    status: StepEndStatus
    content: Optional[str] = None
    result: Any = None
    attempts: Optional[int] = None
    reason: Optional[str] = None     # dependency_failed / dependency_cancelled: it ended because of a dependency
    # What the step's replies cost (absent when none had a price): an agent step's own; a loop's, all its
    # iterations' and judges'; an include's, the included workflow's. The envelope's tokens count the same.
    cost_usd: Optional[float] = None


class StepSkippedData(_Open):
    status: Literal["skipped"]
    reason: str = ""


class AgentTurnData(_Open):
    phase: Literal["request", "response"]
    model: str = ""
    turn: int = 0
    provider: Optional[str] = None
    content: Optional[str] = None
    finish_reason: Optional[str] = None
    # On a response: what the reply cost, counted into the run's spend; null when the model has no price,
    # and then unpriced_model names it. Summed over a run they give its cost (runtime.engine.checkpoints).
    cost_usd: Optional[float] = None
    unpriced_model: Optional[str] = None
    # On a response: of the completion tokens, those spent reasoning (when the provider counts them apart), and
    # the reasoning text (when it returns one; capped). Shown folded; never sent back to the model as content.
    reasoning_tokens: Optional[int] = None
    reasoning: Optional[str] = None
    # The execution's output was pinned (issue #33): no provider was called; the response is the pin's, at no cost.
    pinned: Optional[bool] = None


class ToolCallData(_Open):
    phase: Literal["start", "end"]
    tool_name: str
    tool_call_id: str
    input: Any = None
    output: Any = None          # on end: the text the model sees (capped), or submit_result's answer
    truncated: bool = False     # on end: the output was cut at the tool's cap
    waited_ms: Optional[float] = None  # on end: how long it waited for a person's decision, left out of its duration


class ToolApprovalData(_Open):
    """A tool call that waits for a person ("ask before"), and what was decided."""

    phase: Literal["asked", "approved", "denied", "cancelled"]
    tool_name: str
    tool_call_id: str
    input: Any = None
    reason: Optional[str] = None   # denied: what the model is told; cancelled: why (run stopped)
    actor: Optional[str] = None    # who decided (a username)


class WorkspaceSnapshotData(_Open):
    """The run's workspace was recorded: after a step or a loop iteration, or at the start and end."""

    snapshot: int                  # 1, 2, ... in the run; the REST API serves its files and diff
    label: str                     # "start", "end", or the namespaced step id it follows
    step_id: Optional[str] = None
    workspace: str = "run"         # "run", or the namespaced step id of an isolation: step copy
    files: int = 0
    added: int = 0
    modified: int = 0
    removed: int = 0


class MessageData(_Open):
    level: Literal["info", "warning", "error"] = "info"


class IterationStartData(_Open):
    iteration: Optional[int] = None
    index: Optional[int] = None
    item: Any = None


class IterationEndData(_Open):
    iteration: Optional[int] = None
    index: Optional[int] = None
    item: Any = None
    status: StepEndStatus
    content: Optional[str] = None


class JudgeVerdictData(_Open):
    iteration: int
    done: Optional[bool] = None
    reason: Optional[str] = None
    failed_open: bool = False
    content: Optional[str] = None
    duration_ms: Optional[float] = None
    error: Optional[str] = None
    result: Any = None              # the judge's submit_result, when it gave a valid one
    cost_usd: Optional[float] = None  # what the judge's replies cost (the envelope's tokens count the same)


class LoopEndData(_Open):
    rounds_completed: int
    broke_early: bool = False
    break_reason: Optional[str] = None
    content: Optional[str] = None
    stop_rule: Optional[str] = None  # break_reason "policy": the run policy's rule that stopped it
    loop_type: Optional[Literal["forEach", "repeat-until"]] = None


class RunControlData(_Open):
    action: Literal["pause", "resume", "stop"]
    actor: Optional[str] = None  # who asked (a username), so everyone watching sees it; absent for budgets and timeouts


# ---- the loop debugger: breakpoints and what is done at them (runtime.engine.debugger) ----------------

BreakpointKindName = Literal["step", "round", "judge", "condition", "tool"]
DebugActionName = Literal["edit", "continue", "step", "skip"]


class BreakpointData(_Open):
    id: str                     # the breakpoint's id; "step" for a hold made by Step
    kind: BreakpointKindName
    step: Optional[str] = None
    round: Optional[int] = None
    item: Optional[int] = None
    done: Optional[bool] = None
    condition: Optional[str] = None
    tool: Optional[str] = None


class BreakpointHitData(_Open):
    """The run holds at a breakpoint: which one, where exactly, and what the next agent turn will receive."""

    breakpoint: BreakpointData
    key: str                    # the hit: that breakpoint before that execution (released once, never held again)
    where: dict[str, Any]       # {kind: step|round|judge|tool, step?, loop?, round?, item?, tool?}
    inputs: dict[str, Any]      # prompt, previous_output, item, tools, scope ...
    editable: list[str]         # what an edit may change here
    skippable: bool


class DebugActionData(_Open):
    """What someone did at a held breakpoint: an edit of the pending inputs, or continue, step or skip."""

    action: DebugActionName
    key: str
    actor: Optional[str] = None
    field: Optional[str] = None     # an edit's
    value: Any = None
    path: Optional[str] = None      # a context_file edit's: the file, as the pending step names it
    output: Optional[str] = None    # a skip's typed output
    result: Any = None


# ---- messages between step agents and the coordinator (upstream zenflow's event names) ----------------

MessageKindName = Literal["info", "context_update", "cancel"]


class MessageSentData(_Open):
    """A step agent's ``send_message`` was queued for the coordinator (``stepId``: the sender)."""

    id: str                 # msg-send-<n>
    sender: str             # the sending step execution's namespaced id
    to: str                 # "coordinator"
    kind: MessageKindName = "info"
    text: str = ""


class CoordinatorMessageData(_Open):
    """The coordinator's ``forward_to_agent`` was queued for a running step (``stepId``: the target)."""

    id: str                 # msg-fwd-<n> (one counter with msg-send)
    sender: str = "coordinator"
    to: str                 # the resolved, namespaced step execution id
    kind: MessageKindName = "info"
    text: str = ""


class AgentInboxDrainData(_Open):
    """A step agent read one message from its inbox at the start of a model turn (``stepId``: the reader)."""

    id: str
    sender: str
    kind: MessageKindName = "info"
    text: str = ""
    turn: int = 0           # the model turn it was put into


class CoordinatorInboxMessageData(_Open):
    """The coordinator drained one message from its inbox (the lifecycle notices it also reads repeat events the run
    already has, and are not said again)."""

    source: Literal["message", "lifecycle"]
    sender: str             # the step the item is from or about
    text: str = ""
    id: Optional[str] = None       # a message's id
    event: Optional[str] = None    # a lifecycle notice's: step_start, step_end, step_skipped, error
    cycle: int = 0                 # the wake cycle that drained it


class MessageDroppedData(_Open):
    """A message that will never be delivered, and why (one event per message)."""

    reason: Literal["workflow-cancelled", "target-terminal", "unknown-step", "mailbox-closed-by-finalize",
                    "max-wake-cycles", "hold-timeout", "mailbox-full", "no-transcript", "transcript-too-large",
                    "resume-shutdown", "resolver-error"]
    id: str
    sender: str
    to: str                 # the mailbox it was meant for, or the id as written when it resolved to none
    kind: MessageKindName = "info"
    text: str = ""


class CoordinatorNarrationData(_Open):
    text: str
    cycle: int = 0


class CoordinatorSynthesisData(_Open):
    """The coordinator's synthesis (``finalize``; the last one is the run's summary)."""

    summary: str
    source: Literal["finalize", "reply"] = "finalize"   # reply: no finalize call, its last text stands in


class MaxWakeCyclesWarningData(_Open):
    limit: int
    dropped: int = 0        # messages dropped with max-wake-cycles when the cap was reached


class NoData(_Open):
    pass


EVENT_DATA: dict[str, type[BaseModel]] = {
    "workflow_start": WorkflowStartData,
    "workflow_end": WorkflowEndData,
    "plan_ready": PlanReadyData,
    "step_start": StepStartData,
    "step_end": StepEndData,
    "step_skipped": StepSkippedData,
    "error": NoData,
    "agent_turn": AgentTurnData,
    "tool_call": ToolCallData,
    "tool_approval": ToolApprovalData,
    "workspace_snapshot": WorkspaceSnapshotData,
    "message": MessageData,
    "output": NoData,
    "iteration_start": IterationStartData,
    "iteration_end": IterationEndData,
    "judge_verdict": JudgeVerdictData,
    "loop_end": LoopEndData,
    "run_control": RunControlData,
    "breakpoint_hit": BreakpointHitData,
    "debug_action": DebugActionData,
    "message_sent": MessageSentData,
    "coordinator_message": CoordinatorMessageData,
    "agent_inbox_drain": AgentInboxDrainData,
    "coordinator_inbox_message": CoordinatorInboxMessageData,
    "message_dropped": MessageDroppedData,
    "coordinator_narration": CoordinatorNarrationData,
    "coordinator_synthesis": CoordinatorSynthesisData,
    "max_wake_cycles_warning": MaxWakeCyclesWarningData,
}
EventType = Literal[
    "workflow_start", "workflow_end", "plan_ready", "step_start", "step_end", "step_skipped", "error", "agent_turn", "tool_call",
    "tool_approval", "workspace_snapshot", "message", "output", "iteration_start", "iteration_end", "judge_verdict", "loop_end", "run_control",
    "breakpoint_hit", "debug_action", "message_sent", "coordinator_message", "agent_inbox_drain", "coordinator_inbox_message", "message_dropped",
    "coordinator_narration", "coordinator_synthesis", "max_wake_cycles_warning",
]


# ---- upstream zenflow's --json: what its consumers read (docs/ndjson.md) ---------------------------------
# For each event type both runners have, the fields an upstream consumer may read; ours are additions it skips.
# runworkflow --json prints events through runtime.events.upstream_event, and tests check real runs against this.

# Upstream's envelope: every event may carry these (absent when empty); ours has each, and more.
UPSTREAM_ENVELOPE = ("type", "timestamp", "runId", "stepId", "agent", "agentId", "message", "duration", "tokens", "error",
            "data", "delta", "done", "reasoning")


@dataclass(frozen=True)
class UpstreamShape:
    """What an upstream consumer reads of one event type: envelope fields and ``data`` keys always present, and
    those present on one phase only (``phase`` value -> fields)."""

    envelope: tuple[str, ...] = ()
    data: tuple[str, ...] = ()
    by_phase: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()  # (phase, envelope, data)


UPSTREAM: dict[str, UpstreamShape] = {
    "workflow_start": UpstreamShape(data=("total",)),
    "workflow_end": UpstreamShape(envelope=("duration",), data=("status",)),
    "step_start": UpstreamShape(envelope=("stepId",), data=("index", "total")),
    "step_end": UpstreamShape(envelope=("stepId", "duration"), data=("status",)),
    "step_skipped": UpstreamShape(envelope=("stepId",)),
    "error": UpstreamShape(envelope=("error",)),
    # The coordinator's turns have no step: agent "coordinator".
    "agent_turn": UpstreamShape(envelope=("agent", "agentId"), data=("phase", "model", "turn"),
                                by_phase=(("response", ("tokens", "duration"), ()),)),
    "tool_call": UpstreamShape(envelope=("agent", "agentId"), data=("phase", "tool_name", "tool_call_id"),
                               by_phase=(("start", (), ("input",)), ("end", ("duration",), ("output",)))),
    "message": UpstreamShape(envelope=("message",)),
    "output": UpstreamShape(envelope=("stepId",)),
    # Messaging and the coordinator (upstream's names; COORDINATOR facts in docs/api.md).
    "message_sent": UpstreamShape(envelope=("stepId",), data=("id", "text")),
    "coordinator_message": UpstreamShape(envelope=("stepId",), data=("id", "text")),
    "agent_inbox_drain": UpstreamShape(envelope=("stepId",), data=("id", "text")),
    "coordinator_inbox_message": UpstreamShape(data=("text",)),
    "message_dropped": UpstreamShape(data=("reason",)),
    "coordinator_narration": UpstreamShape(data=("text",)),
    "coordinator_synthesis": UpstreamShape(data=("summary",)),
    "max_wake_cycles_warning": UpstreamShape(),
}

# Upstream's, not emitted here: goal mode's drafted workflow (this runner has no goal mode).
UPSTREAM_ONLY = ("plan_ready",)


def upstream_missing(event: dict) -> list[str]:
    """The upstream fields ``event`` lacks (``data.x`` for data keys); [] for a type upstream does not have."""
    shape = UPSTREAM.get(event.get("type", ""))
    if shape is None:
        return []
    data: dict[str, Any] = event.get("data") or {}
    envelope, keys = list(shape.envelope), list(shape.data)
    for phase, more_envelope, more_data in shape.by_phase:
        if data.get("phase") == phase:
            envelope += more_envelope
            keys += more_data
    return [f for f in envelope if f not in event] + [f"data.{k}" for k in keys if k not in data]


class Event(BaseModel):
    """The envelope every event has; ``data`` is checked by type with :data:`EVENT_DATA`."""

    model_config = ConfigDict(extra="forbid")
    type: EventType
    seq: int
    timestamp: str
    runId: str
    stepId: Optional[str] = None
    agent: Optional[str] = None
    agentId: Optional[str] = None
    message: Optional[str] = None
    duration: Optional[str] = None
    durationMs: Optional[float] = None
    tokens: Optional[Tokens] = None
    error: Optional[str] = None
    data: Optional[dict[str, Any]] = None
    delta: Optional[str] = None
    done: Optional[bool] = None
    reasoning: Optional[str] = None
    where: Optional[Where] = None
    inherited: Optional[bool] = None  # a fork's copy of its parent's event (runtime.runs.forks): that part was not run again
    superseded: Optional[bool] = None  # an attempt's event past the boundary its run resumed from: kept, but that work was done again


def check(event: dict) -> None:
    """Raise ``pydantic.ValidationError`` unless ``event`` keeps the contract (for tests and tools)."""
    Event.model_validate(event)
    EVENT_DATA[event["type"]].model_validate(event.get("data") or {})


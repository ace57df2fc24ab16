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


class ToolCallData(_Open):
    phase: Literal["start", "end"]
    tool_name: str
    tool_call_id: str
    input: Any = None
    output: Any = None          # on end: the text the model sees (capped), or submit_result's answer
    truncated: bool = False     # on end: the output was cut at the tool's cap


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
    "workflow_start", "workflow_end", "step_start", "step_end", "step_skipped", "error", "agent_turn", "tool_call",
    "tool_approval", "workspace_snapshot", "message", "output", "iteration_start", "iteration_end", "judge_verdict", "loop_end", "run_control",
    "message_sent", "coordinator_message", "agent_inbox_drain", "coordinator_inbox_message", "message_dropped",
    "coordinator_narration", "coordinator_synthesis", "max_wake_cycles_warning",
]


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


def check(event: dict) -> None:
    """Raise ``pydantic.ValidationError`` unless ``event`` keeps the contract (for tests and tools)."""
    Event.model_validate(event)
    EVENT_DATA[event["type"]].model_validate(event.get("data") or {})


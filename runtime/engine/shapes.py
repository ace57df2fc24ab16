"""The shapes of what the engine and its folds read: events, their data, checkpoints, workflow documents.

These are ``TypedDict``\\ s: at run time each one is a plain ``dict`` (building one builds a dict; nothing is
checked, converted or copied), so the hot paths pay nothing for them; to mypy they say which keys a reader may
expect and what each holds. ``total=False`` with ``Required[...]``: keys that may be absent are marked as such.

* **Events** (:class:`StoredEvent` and the ``*Data`` shapes): the run event contract, whose truth is the pydantic
  models of :mod:`runtime.contract` (an event as :class:`runtime.events.Emitter` stamps it and the database stores
  it). ``Optional[X] = None`` there is ``NotRequired[X | None]`` here: such a key is absent (the emitter drops
  ``None`` fields of the envelope) or null. A ``*Data`` shape also names the keys this engine adds beyond its
  model that a fold reads (the contract lets ``data`` carry more); ``tests/runtime/test_shapes_match_the_contract.py``
  holds each one equal to its model, so the two cannot drift. An event's ``data`` depends on its ``type``, which a
  ``TypedDict`` cannot say: ``StoredEvent.data`` is the contract's ``dict[str, Any]``, and a reader that has
  looked at the type names its shape (``end: StepEndData = data``, from an ``Any``: no cast, no cost).
* **Checkpoints** (:class:`StepEntry`, :class:`IterationEntry`, :class:`VerdictEntry`, :class:`LoopEntry`,
  :class:`Spent`): what :mod:`runtime.engine.checkpoints` folds a run's events into and
  :class:`runtime.engine.registry.RunState` keeps, stored as JSON in ``Run.start_checkpoint``.
* **Documents** (:class:`WorkflowDoc`, :class:`StepDoc`, :class:`LoopDoc`, :class:`AgentDoc`, :class:`OptionsDoc`):
  the zenflow v1 document (:mod:`designer.schema`) as the engine reads it, after validation. The entry points take a
  :class:`WorkflowDoc` (``run_workflow``, ``RunContext``, ``plan_of``, ``lists_memory_tools``, the playground's
  ``try_turn``); below them the scheduler and the steps still read a step or an agent as a plain ``dict`` (its keys
  those of :class:`StepDoc`, :class:`AgentDoc`), cast once where they are handed down (the top ``Scope``,
  ``RunContext.agents``), not copied.

No ``from __future__ import annotations`` here: ``Required`` must be seen when each class is made, so that
``__required_keys__`` is right at run time too (the contract test reads it).
"""
from typing import Any, Literal, Required, TypeAlias, TypedDict

# ---- vocabularies (runtime.contract's, as plain Literals) ----------------------------------------

StepEndStatus = Literal["completed", "failed", "skipped", "cancelled"]
RunEndStatus = Literal["completed", "partial", "failed", "cancelled"]
LoopType = Literal["forEach", "repeat-until"]
JUDGE_STEP = "untilAgent"  # the inner id a judge's events carry: ``loop.N.untilAgent`` (a judge has no mailbox)
EventType = Literal[
    "workflow_start", "workflow_end", "plan_ready", "step_start", "step_end", "step_skipped", "error", "agent_turn", "tool_call",
    "tool_approval", "workspace_snapshot", "message", "output", "iteration_start", "iteration_end", "judge_verdict",
    "loop_end", "run_control", "breakpoint_hit", "debug_action", "message_sent", "coordinator_message",
    "agent_inbox_drain", "coordinator_inbox_message", "message_dropped", "coordinator_narration", "coordinator_synthesis", "max_wake_cycles_warning",
]


# ---- the envelope ----------------------------------------------------------------------------------

class Tokens(TypedDict):
    """``{prompt, completion, total}``: an event's ``tokens``, and what a step or a judge spent."""

    prompt: int
    completion: int
    total: int


class Where(TypedDict, total=False):
    """The structure of a namespaced step id (:func:`runtime.contract.locate`)."""

    loop: str | None        # the loop step this step runs inside
    iteration: int | None   # repeat-until: zero-based iteration
    item: int | None        # forEach: zero-based item index
    inner: str | None       # the inner step's own id
    include: str | None     # the include step this step came from


class StoredEvent(TypedDict, total=False):
    """One event as it is emitted and stored (the zenflow envelope plus ``seq``, ``durationMs``, ``where``)."""

    type: Required[EventType]
    seq: Required[int]
    timestamp: Required[str]
    runId: Required[str]
    stepId: str | None
    agent: str | None
    agentId: str | None
    message: str | None
    duration: str | None
    durationMs: float | None
    tokens: Tokens | None
    error: str | None
    data: dict[str, Any] | None   # by type: the *Data shapes below
    delta: str | None
    done: bool | None
    reasoning: str | None
    where: Where | None
    inherited: bool | None
    superseded: bool | None          # an interrupted attempt's event past the boundary its run resumed from


# An event as code that holds events as plain dicts has it (the engine's emitter, a stored text parsed with a
# dict-typed reader): a function that is given events takes either, and reads a RawEvent as a StoredEvent.
RawEvent: TypeAlias = dict[str, Any]


# ---- data, by event type (the types the folds read) ----------------------------------------------

class WorkflowStartData(TypedDict, total=False):
    total: Required[int]
    name: str
    provider: str
    budgets: dict[str, float]
    from_checkpoint: int | None
    model_override: str | None       # every model of the run replaced by this one (upstream's --model)
    thinking: str | None             # the reasoning level asked of every agent (upstream's --thinking)


class WorkflowEndData(TypedDict, total=False):
    status: Required[RunEndStatus]
    reason: str
    code: str
    cost_usd: float
    loops: dict[str, dict[str, Any]]
    unpriced_models: list[str]
    summary: str | None


class StepStartData(TypedDict, total=False):
    index: int | None
    total: int | None
    loop_type: LoopType | None
    items: int | None
    include: str | None
    max_iterations: int | None       # engine: a repeat-until's maxIterations (the run page's round count)
    started_at: str | None           # a step going on after a resume: when it first started
    carried_s: float | None          # ... and the seconds it had worked before the resume


class StepEndData(TypedDict, total=False):
    status: Required[StepEndStatus]
    content: str | None
    result: Any
    attempts: int | None
    reason: str | None               # dependency_failed / dependency_cancelled
    cost_usd: float | None


class StepSkippedData(TypedDict, total=False):
    status: Required[Literal["skipped"]]
    reason: str


class AgentTurnData(TypedDict, total=False):
    phase: Required[Literal["request", "response"]]
    model: str
    turn: int
    provider: str | None
    content: str | None
    finish_reason: str | None
    cost_usd: float | None
    unpriced_model: str | None
    reasoning_tokens: int | None     # of the completion tokens, those spent reasoning
    reasoning: str | None            # the reasoning text, when the provider returns one
    pinned: bool | None              # a pinned output answered it: no provider call, no tokens


class ToolCallData(TypedDict, total=False):
    phase: Required[Literal["start", "end"]]
    tool_name: Required[str]
    tool_call_id: Required[str]
    input: Any
    output: Any
    truncated: bool
    waited_ms: float | None          # on end: how long it waited for a person, left out of its duration


class MessageData(TypedDict, total=False):
    level: Literal["info", "warning", "error"]
    retry: int                       # engine: a step run again, its attempt so far (the fold forgets the step)


class IterationStartData(TypedDict, total=False):
    iteration: int | None            # repeat-until
    index: int | None                # forEach
    item: Any


class IterationEndData(TypedDict, total=False):
    iteration: int | None
    index: int | None
    item: Any
    status: Required[StepEndStatus]
    content: str | None
    result: Any                      # engine: the iteration's structured result
    error: str                       # engine: why it failed


class JudgeVerdictData(TypedDict, total=False):
    iteration: Required[int]
    done: bool | None
    reason: str | None
    failed_open: bool
    content: str | None
    duration_ms: float | None
    error: str | None
    result: Any
    cost_usd: float | None


class LoopEndData(TypedDict, total=False):
    rounds_completed: Required[int]
    broke_early: bool
    break_reason: str | None
    content: str | None
    stop_rule: str | None
    loop_type: LoopType | None


class RunControlData(TypedDict, total=False):
    action: Required[Literal["pause", "resume", "stop"]]
    actor: str | None


# ---- checkpoints (runtime.engine.checkpoints) -----------------------------------------------------

class StepEntry(TypedDict, total=False):
    """A finished step: ``error`` only for a failed one; ``tokens`` and ``cost_usd`` when its end said them."""

    status: Required[str]
    content: Required[str]
    result: Required[Any]
    blocked: Required[bool]          # failed or skipped because a dependency failed
    error: str | None
    tokens: Tokens
    cost_usd: float


class VerdictEntry(TypedDict, total=False):
    """What a checkpoint keeps of a judge's verdict: the ``judge_verdict`` data without its timing, with what the
    judge spent."""

    done: Required[bool | None]
    reason: Required[str | None]
    failed_open: Required[bool]
    content: Required[str | None]
    error: str
    result: Any
    tokens: Tokens
    cost_usd: float


class IterationEntry(TypedDict, total=False):
    """A finished iteration: ``iteration`` (repeat-until) or ``index`` and ``item`` (forEach)."""

    iteration: int
    index: int
    item: Any
    status: Required[str]
    content: Required[str]
    result: Required[Any]
    error: str
    # A VerdictEntry, typed loosely while the engine hands it on to code that holds it as a plain dict
    # (runtime.engine.loops -> prompting.IterationRecord).
    verdict: Any


class LoopEntry(TypedDict, total=False):
    """A loop's record: its finished iterations in order, their completed outputs joined, and its end (the
    ``loop_end`` data) once it ended.

    A fold's records have every key (and :meth:`~runtime.engine.checkpoints.Checkpoint.from_dict` checks ``kind``
    and ``iterations``); none is ``Required`` because a reader may start from an empty record
    (:func:`runtime.engine.fork_points.with_input`)."""

    kind: str                        # "forEach" or "repeat-until"
    # Each one an IterationEntry: typed loosely while a caller holds them as plain dicts
    # (runtime.engine.fork_points).
    iterations: list[Any]
    cumulative: str
    end: dict[str, Any] | None


class Spent(TypedDict, total=False):
    """What a run spent: ``{tokens, cost_usd, steps_started, unpriced_models}`` (empty in a bare checkpoint)."""

    tokens: Tokens
    cost_usd: float
    steps_started: int
    unpriced_models: list[str]


# ---- workflow documents (designer.schema: zenflow v1) ---------------------------------------------

class AgentDoc(TypedDict, total=False):
    description: Required[str]
    prompt: str
    model: str
    tools: list[str]
    disallowedTools: list[str]
    maxTurns: int
    temperature: float
    topP: float
    resultSchema: dict[str, Any]


class LoopDoc(TypedDict, total=False):
    forEach: str | list[Any]
    maxConcurrency: int
    maxIterations: int
    until: str
    untilAgent: str
    delay: str
    outputMode: Literal["", "last", "cumulative"]
    steps: list["StepDoc"]


class StepDoc(TypedDict, total=False):
    id: Required[str]
    agent: str
    instructions: str
    dependsOn: list[str]
    contextFiles: list[str]
    model: str
    timeout: str
    retries: int
    maxRetries: int
    condition: str
    include: str
    loop: LoopDoc


class OptionsDoc(TypedDict, total=False):
    maxConcurrency: int
    onStepFailure: Literal["cascade", "skip-dependents", "abort"]
    timeout: str
    stepTimeout: str
    isolation: str
    scheduler: Literal["dependency-first", "round-robin", "least-busy"]
    maxRetries: int


class WorkflowDoc(TypedDict, total=False):
    name: Required[str]
    description: str
    version: int
    agents: dict[str, AgentDoc]
    includes: dict[str, str]
    steps: Required[list[StepDoc]]
    options: OptionsDoc

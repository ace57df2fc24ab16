"""What the run endpoints take and answer (runtime/api.py), as ninja Schemas: the OpenAPI document says it, and the
front end's types are generated from it (``frontend/src/api/openapi.gen.ts``).

The answers are what the services write, field for field and in their order (a Schema writes its fields in the
order they are declared). Open-ended parts stay open: a run's script, budgets and loops, an event, an iteration's
item and result pass through as they are. Routes whose answers leave some fields out use ``exclude_unset``: a field
with a default is written only when the service wrote it.
"""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Optional

from ninja import Schema
from pydantic import ConfigDict

from common.schemas import Number, PassedThrough
from runtime.contract import Event

# ---------------------------------------------------------------- what the routes take


class RunIn(Schema):
    workflow_id: int
    version: Optional[int] = None
    provider: str = "simulated"
    model: Optional[str] = None
    script: Optional[Any] = None
    budgets: Optional[dict] = None
    policies: Optional[dict] = None
    ask_before: Optional[list[str]] = None      # tools whose calls wait for a person
    workspace_upload: Optional[str] = None      # an upload id (POST /uploads): the files the run starts from
    workspace_from_run: Optional[str] = None    # or an earlier run: the files it ended with
    coordinator: Optional[str] = None           # narrate (absent: the default), summary-only or off (upstream's CLI modes)
    shared_memory: bool = False                 # the step agents get shared_memory_write / _read
    model_override: bool = False                # `model` replaces every agent's own (upstream's --model)
    thinking: Optional[str] = None              # off, low, medium or high (upstream's --thinking); None: provider's default
    permissions: Optional[dict] = None          # {allow?, deny?, strict?, sandbox?, yolo?}: runtime.tools.permissions
    breakpoints: Optional[list[Any]] = None     # breakpoints for this run only (designer.breakpoints), beside the workflow's
    breakpoints_off: bool = False               # the workflow's own breakpoints do not hold this run
    use_pins: bool = True                       # the workflow's pinned outputs answer their steps; False: all pins off


class ForkIn(Schema):
    at: Any                              # {step, iteration?}: where the new run starts (checked by runtime.runs.forks)
    document: Optional[Any] = None       # a whole edited document, or
    patch: Optional[Any] = None          # a JSON Patch (RFC 6902) on the parent's document
    input: Optional[Any] = None          # {item} for a forEach item, {previous_output} for a round
    provider: Optional[str] = None
    model: Optional[str] = None
    script: Optional[Any] = None


class DenyIn(Schema):
    reason: str = ""


class DebugIn(Schema):
    """A command for a run held at a breakpoint (runtime.runs.debugging)."""

    action: Literal["edit", "continue", "step", "skip"]
    field: Optional[Literal["previous_output", "item", "instructions", "context_file"]] = None  # edit: what changes
    value: Optional[Any] = None          # edit: the new value (text; an item may be any JSON)
    path: Optional[str] = None           # edit of a context_file: which one, as the pending step names it
    output: Optional[str] = None         # skip: what the skipped step (round, tool call) ends with
    result: Optional[Any] = None         # skip: its structured result, if any
    key: Optional[str] = None            # the hold's key: refused (409) when the run no longer holds there


class DebugOut(Schema):
    run_id: str
    status: str
    holding: bool
    hold: Optional[dict[str, Any]]       # the breakpoint_hit's data (breakpoint, key, where, inputs, editable, skippable, edits)
    breakpoints: list[dict[str, Any]]    # the run's breakpoints, as it started with them



# ---------------------------------------------------------------- runs

RunStatusName = Literal["queued", "running", "paused", "completed", "partial", "failed", "cancelled"]


class TokensOut(Schema):
    prompt: int
    completion: int
    total: int


class RunOut(Schema):
    """A run as the API and the websockets show it (runtime.live.serializers.run_dict)."""

    id: str                                   # a UUID
    workflow_id: int
    workflow_name: str
    workspace_id: int
    started_by: str                           # a username ('' when the account is gone)
    version: Optional[int]
    status: RunStatusName
    reason: str
    provider: str
    model: str
    model_override: bool                      # `model` replaced every agent's own; else a default for those naming none
    thinking: Optional[str]                   # the reasoning level asked of every agent; null: the provider's default
    permissions: dict[str, Any]               # the run's permission mode: {allow?, deny?, strict?, sandbox?, yolo?}
    budgets: dict[str, Any]                   # max_tokens, max_cost_usd, max_duration_s, max_steps
    policies: Optional[dict[str, Any]]        # stop_rules, combine, on_iteration_error, loops
    script: Any                               # the simulated provider's script
    backend: str
    created_at: str                           # ISO 8601
    started_at: Optional[str]
    finished_at: Optional[str]
    paused_at: Optional[str]                  # since when it is paused (null: it is not)
    paused_ms: int                            # its ended pauses' length
    tokens: TokensOut
    cost_usd: Number
    unpriced_models: list[str]                # models whose price is not known: their calls are not in cost_usd
    loops: dict[str, Any]                     # loop step id -> {rounds_completed, broke_early, break_reason, ...}
    last_seq: int
    ask_before: list[str]                     # tools whose calls wait for a person
    workspace_seed: Optional[dict[str, Any]]  # {upload} or {from_run, snapshot}: what its files started from
    parent: Optional[str]                     # a fork's parent run
    fork_point: Optional[dict[str, Any]]      # {step, iteration?, kind, seq, inherited_events, edited?}
    start_seq: int                            # the event a fork or a resumed run went on from
    resumes: int
    resumed: Optional[dict[str, Any]]         # {reason, attempt, of, from_seq, after {kind, step, iteration?}}: the last resume
    coordinator: str                          # narrate, summary-only or off
    summary: str                              # the coordinator's synthesis ('' until it ends, or without one)
    shared_memory: bool
    trace_id: Optional[str]                   # its OpenTelemetry trace (32 hex digits); null: not traced
    trace_url: Optional[str]                  # the trace in a viewer (its workspace's link template, else OTEL_TRACE_LINK_TEMPLATE); null: none
    pins: list[str]                           # step paths its pinned outputs answered (no provider call)


class RunStartedOut(RunOut):
    """A run just started (POST /runs, a fork): the run, and what its start has to say."""

    script_warnings: list[str]                # a script key naming no step, agent or coordinator (its replies go unused)


class ScriptCheckIn(Schema):
    script: Any                          # YAML or JSON text, or its mapping
    document: Any                        # the workflow the script is for (the editor's, saved or not)


class ScriptCheckOut(Schema):
    """A script checked against a workflow before a run (the run and fork dialogs ask as it is typed)."""

    warnings: list[str]
    keys: list[str]                      # the plain keys the workflow has: step ids, agents, the fixed ones


class SharedMemoryEntryOut(Schema):
    """A key of the run's shared memory (runtime.runs.shared_memory), with the step that wrote it last."""

    key: str                                  # fully qualified: <namespace>/<name>
    namespace: str                            # the writing agent's name
    name: str
    value: str
    step_id: str                              # the namespaced step execution id that wrote it
    agent: str
    seq: int                                  # the tool_call event that finished the write
    written_at: str                           # ISO 8601


class CountOut(Schema):
    count: int


class ProviderOut(Schema):
    """A provider the run dialog offers, and whether a run can use it now."""

    name: str
    label: str
    ready: bool
    key_source: Optional[str]   # "workspace", "server", or null: no key
    needs_key: bool


class ModelOut(Schema):
    """A model the editor's picker offers (GET /models): as an agent's ``model`` names it, with its prices."""

    model: str                                  # "google/gemini-2.5-flash"
    provider: str
    label: str
    input_usd_per_mtok: Optional[float]         # USD per million prompt tokens (genai-prices); null: not known
    output_usd_per_mtok: float
    context_window: Optional[int]


class UsageRowOut(Schema):
    limit: Optional[Number]     # null: no limit
    used: Number                # spent (tokens, cost) or counted (runs)
    reserved: Number = 0        # held by the day's active runs beyond what they have spent (tokens, cost)
    left: Optional[Number]      # limit - used - reserved


class UsageLimitsOut(Schema):
    concurrent_runs: UsageRowOut
    runs_per_day: UsageRowOut
    tokens_per_day: UsageRowOut
    cost_usd_per_day: UsageRowOut


class ReserveOut(Schema):
    """What a run without its own budget holds of the day's tokens and cost (capped at what is left)."""

    max_tokens: int
    max_cost_usd: float


class UsageOut(Schema):
    """A workspace's run limits, what is used and what is left today; the daily ones reset at midnight UTC."""

    limits: UsageLimitsOut
    resets_in_s: int
    reserve_without_budget: ReserveOut


# ---------------------------------------------------------------- events, iterations, metrics

class RunEventOut(Event):
    """A run event (runtime/contract.py): its envelope; each type's `data` is in frontend/src/api/events.gen.ts."""

    model_config = ConfigDict(extra="allow")


# Written as it was recorded, every key in its order.
RunEvent = Annotated[dict[str, Any], PassedThrough(RunEventOut)]


class IterationOut(Schema):
    """A forEach item (`index`) or a repeat-until round (`iteration`) of a loop."""

    step_id: str
    iteration: Optional[int]    # a round's number; null for a forEach item
    index: Optional[int]        # an item's index; null for a round
    item: Any
    status: str
    content: str
    result: Any
    verdict: Any                # {done, reason, ...} of a round's judge or `until`
    tokens: int                 # what its turns used
    duration_ms: Optional[Number]


class StepMetricsOut(Schema):
    tokens: int
    duration_ms: Optional[Number]
    status: Optional[str]
    # A loop judge's row (`<loop>.<iteration>.untilAgent`) says so, and so does the coordinator's (`coordinator`):
    kind: str = "judge"
    loop: str = ""
    iteration: Any = None
    pinned: bool = False  # a pinned output answered it: no provider call, no tokens


class MetricsOut(Schema):
    status: RunStatusName
    tokens: TokensOut
    cost_usd: Number
    duration_s: Optional[float]
    steps: dict[str, StepMetricsOut]          # in reading order: each top-level step before what ran inside it
    loops: dict[str, dict[str, Any]]          # {iterations, tokens, duration_ms: {total, mean, max}, ...the summary}
    break_reasons: dict[str, Any]
    pinned: int = 0                           # agent executions a pinned output answered (no provider call)


# ---------------------------------------------------------------- two runs compared

class CompareUnitOut(Schema):
    """What one run shows at a row (a step, or a loop's round or item)."""

    status: Optional[str]
    output: Any
    result: Any
    done: Any
    reason: Optional[str]
    tokens: int
    cost_usd: Number
    duration_ms: Optional[Number]
    item: Any
    inherited: bool                # a fork's row copied from its parent's events: not run again in it
    edited: list[str]              # what someone changed at a breakpoint held before it ("previous_output", "context_file:notes.md", ..., "skipped")
    pinned: bool                   # a pinned output answered it (its model was not asked)


class CompareRowOut(Schema):
    key: str                       # a step id, `loop.N` (a round) or `loop[N]` (an item)
    where: dict[str, Any]          # the structure of the key (runtime.contract.locate)
    a: Optional[CompareUnitOut]    # null: the run never got there
    b: Optional[CompareUnitOut]
    differs: list[str]             # the fields they disagree on, or ["missing"]


class DivergedAtOut(Schema):
    key: str
    fields: list[str]


class CompareOut(Schema):
    a: RunOut
    b: RunOut
    same_version: bool
    rows: list[CompareRowOut]
    diverged_at: Optional[DivergedAtOut]   # the first row where they part; null: they agree


# ---------------------------------------------------------------- tool calls waiting for a person

class ToolDecisionOut(Schema):
    status: str   # "approved" or "denied"


# ---------------------------------------------------------------- a run's files

class UploadOut(Schema):
    """A zip of files a run can start from (its id goes in `workspace_upload`)."""

    id: str
    files: int
    bytes: int
    names: list[str]   # the first 20


class SnapshotOut(Schema):
    """One recorded moment of a run's workspace."""

    number: int
    label: str                  # "start", "end", or the namespaced step id it follows
    step_id: Optional[str]
    workspace: str              # "run", or the step id of an `isolation: step` copy
    base: Optional[int]         # the snapshot before it in the same workspace
    files: int
    added: int
    modified: int
    removed: int
    partial: bool
    note: str                   # why some contents were not kept ("not stored: this run's snapshot storage ... full")
    created_at: datetime
    created: str                # ISO 8601, the same moment
    superseded: bool            # taken by an attempt a resume went on past


class RunWorkspaceOut(Schema):
    """How the run's tools were confined, and its snapshots."""

    sandbox: str
    network: bool
    isolation: str
    ask_before: list[str]
    uses_tools: bool
    on_disk: bool
    snapshots: list[SnapshotOut]


class SnapshotFileOut(Schema):
    path: str
    size: int
    stored: bool    # false: its content cannot be shown (too big to keep, or the snapshot storage was full)
    reason: str     # why not, in words ("" when stored)


class TraceTestOut(Schema):
    """A test span sent to a workspace's own collector: whether it took it."""

    ok: bool
    trace_id: str               # the test span's trace
    trace_url: Optional[str]    # where to see it (the workspace's link template, else the server's); null: none, or not taken
    error: Optional[str]        # why not, in words: what the collector answered, or why it could not be reached


class WorkspaceLinkOut(Schema):
    path: str
    target: str     # as the link says it (untrusted text), never resolved


class SnapshotFilesOut(Schema):
    snapshot: int
    partial: bool
    note: str       # why some contents of this snapshot were not kept ("" if all were)
    links: list[WorkspaceLinkOut]   # its symbolic links: listed with their targets, never followed (no content kept)
    files: list[SnapshotFileOut]


class SnapshotFileContentOut(Schema):
    path: str
    size: int
    text: Optional[str]     # null: binary, or not stored
    truncated: bool
    stored: bool
    reason: str             # why its content was not kept ("" when stored)


class FileChangeOut(Schema):
    path: str
    change: Literal["added", "modified", "removed"]
    diff: Optional[str]     # unified diff text; null for a binary or unstored file
    truncated: bool


class SnapshotDiffOut(Schema):
    """The changes since the snapshot before it in the same workspace."""

    snapshot: int
    base: Optional[int]
    changes: list[FileChangeOut]


# ---------------------------------------------------------------- pinned outputs (runtime.runs.pins)

class PinIn(Schema):
    step: str                            # a step path of the run: one execution (`dev.2.draft`), or a round / loop (`dev.2`)
    content: Optional[str] = None        # an edited output to pin instead of the run's (one execution only)
    result: Any = None                   # and its result, taken when `content` is given and `result` is present


class PinOut(Schema):
    id: int
    workflow_id: int
    step_path: str
    content: str
    result: Any
    has_result: bool
    source_run: str
    source_version: int
    created_by: str
    created_at: str


# ---------------------------------------------------------------- one step alone (runtime.runs.playground)

class PlaygroundOriginalOut(Schema):
    content: Optional[str]
    result: Any
    status: str                          # completed, or failed (nothing it gave can be shown)
    tokens: int
    cost_usd: Number
    turns: int
    pinned: bool


class PlaygroundInputsOut(Schema):
    """A step execution's real inputs, as its first request recorded them, and what it gave."""

    run_id: str
    workflow_id: int
    version: Optional[int]
    step: str
    kind: Literal["step", "judge"]
    agent: str
    provider: str
    model: str
    temperature: Optional[Number]
    system: str
    user: str
    inbox: list[str]
    tools: list[str]
    instructions: Optional[str]          # the step's own instructions text (None: from a file, or not in the document)
    original: PlaygroundOriginalOut


class PlaygroundIn(Schema):
    step: str                            # the execution's step path (`draft`, `dev.2.draft`, `dev.2.untilAgent`)
    instructions: Optional[str] = None   # replaces the step's task in the recorded prompt
    system: Optional[str] = None         # replace the recorded system / user prompt whole
    user: Optional[str] = None
    model: Optional[str] = None
    temperature: Optional[float] = None
    script: Optional[Any] = None         # replies for the simulated provider (default: the run's script)


class PlaygroundPrompt(Schema):
    system: str
    user: str


class PlaygroundTryOut(Schema):
    """One try: what the model gave with the edits, beside what the execution gave in its run."""

    step: str
    agent: str
    model: str
    temperature: Optional[Number]
    prompt: PlaygroundPrompt
    content: str
    result: Any
    status: str
    error: Optional[str]
    tokens: int
    cost_usd: Number
    turns: int
    notes: list[str]
    original: PlaygroundOriginalOut


class PlaygroundApplyIn(Schema):
    step: str
    instructions: Optional[str] = None
    model: Optional[str] = None
    temperature: Optional[float] = None


class PlaygroundApplyOut(Schema):
    workflow_id: int
    version: int                         # the new version holding the change
    applied: list[str]


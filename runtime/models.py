"""Run records. Events are the source of truth; iteration rows are derived from them."""
from __future__ import annotations

import json
import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models

from designer.models import Workflow, WorkflowVersion
from runtime.contract import ACTIVE_RUN_STATUSES, FINAL_RUN_STATUSES, RUN_STATUSES

# A run's statuses are the contract's (runtime/contract.py), as choices for the column.
RunStatus = models.TextChoices("RunStatus", [(s.name, s.value) for s in RUN_STATUSES])  # type: ignore[call-overload]  # the functional API, untyped in django-stubs
ACTIVE_STATUSES = tuple(RunStatus(s.value) for s in ACTIVE_RUN_STATUSES)
FINAL_STATUSES = tuple(RunStatus(s.value) for s in FINAL_RUN_STATUSES)


class RunQuerySet(models.QuerySet):
    def labelled(self) -> RunQuerySet:
        """With the workflow's name and the version's number (what lists and sockets show),
        without loading the version's document and source."""
        return self.select_related("workflow", "version", "owner").defer("version__document", "version__source", "version__layout")


class Run(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # Who started it; the workspace (the workflow's, when it started) decides who may watch or control it.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="runs")
    workspace = models.ForeignKey("accounts.Workspace", on_delete=models.CASCADE, related_name="runs")
    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="runs")
    version = models.ForeignKey(WorkflowVersion, on_delete=models.CASCADE, related_name="runs")
    provider = models.CharField(max_length=40, default="simulated")
    model = models.CharField(max_length=200, blank=True, default="")
    # The model replaces every agent's, step's and judge's own (upstream's --model); False: it is a default for the
    # agents that name none.
    model_override = models.BooleanField(default=False)
    # The reasoning level asked of every agent (runtime.providers.thinking.LEVELS); "": the provider's default.
    thinking = models.CharField(max_length=10, blank=True, default="")
    # The run's OpenTelemetry trace (32 hex digits), chosen as it first starts when traces are on
    # (runtime.live.tracing); a resumed run goes on in it. "": not traced.
    trace_id = models.CharField(max_length=32, blank=True, default="")
    # Where its page links the trace: its workspace's link template as the trace was started ('' : the server's,
    # OTEL_TRACE_LINK_TEMPLATE), kept with the run since the trace stays where it was sent.
    trace_link_template = models.CharField(max_length=500, blank=True, default="")
    # Its permission mode for tool calls, as upstream's flags: {allow?, deny?, strict?, sandbox?, yolo?}
    # (runtime.tools.permissions; {}: only the ask-before list gates).
    permissions = models.JSONField(default=dict, blank=True)
    script = models.JSONField(null=True, blank=True)
    budgets = models.JSONField(default=dict, blank=True)
    policies = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=RunStatus.choices, default=RunStatus.QUEUED)
    reason = models.TextField(blank=True, default="")
    backend = models.CharField(max_length=12, default="inline")
    # What the user asked for while the run executes elsewhere (celery): pause, resume, stop.
    control_request = models.CharField(max_length=12, blank=True, default="")
    control_by = models.CharField(max_length=150, blank=True, default="")  # who asked, for the run_control event
    # The loop debugger (runtime.engine.debugger): the run's breakpoints as it started with them, the hold it is at
    # (its breakpoint_hit's data and the edits since; null: none), and the commands the API wrote for its watcher.
    breakpoints = models.JSONField(default=list, blank=True)
    debug_hold = models.JSONField(null=True, blank=True)
    debug_requests = models.JSONField(default=list, blank=True)
    worker = models.CharField(max_length=200, blank=True, default="")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Since when the run is paused (null while it is not), and how long its earlier pauses lasted:
    # the run page's clock leaves paused time out, also when the page is opened mid-pause.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_ms = models.BigIntegerField(default=0)
    tokens_prompt = models.BigIntegerField(default=0)
    tokens_completion = models.BigIntegerField(default=0)
    cost_usd = models.FloatField(default=0.0)
    # Models whose price is not known: their calls are not in cost_usd, and the run says so.
    unpriced_models = models.JSONField(default=list, blank=True)
    loops = models.JSONField(default=dict, blank=True)
    last_seq = models.BigIntegerField(default=0)
    # Agent tools: the tools that wait for a person, and what the run's workspace starts from
    # ({"upload": id} or {"from_run": id}); the sandbox it ran under, as decided by the deployment at start.
    ask_before = models.JSONField(default=list, blank=True)
    workspace_seed = models.JSONField(null=True, blank=True)
    sandbox = models.CharField(max_length=8, blank=True, default="")
    tools_used = models.BooleanField(default=False)  # an agent called a tool (submit_result aside)
    # The live view (runtime.live.view) of a finished run, folded once from its events: its page opens at once.
    view = models.JSONField(null=True, blank=True)
    # Where the run goes on from (runtime.durability.continuation): the state after event `start_seq`, as a checkpoint
    # (runtime.engine.checkpoints). Set when it resumes after its worker was lost (`resumes` times so far), or when it
    # is a fork of `parent` (at `fork_point`: {step, iteration?, seq}), whose events up to there it inherited.
    start_seq = models.BigIntegerField(default=0)
    start_checkpoint = models.JSONField(null=True, blank=True)
    resumes = models.PositiveIntegerField(default=0)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks")
    fork_point = models.JSONField(null=True, blank=True)
    # Its coordinator (runtime.coordinator): narrate, summary-only or off, as upstream's CLI (runs.create gives new runs
    # upstream's default, narrate; "off" here keeps runs stored before coordinators existed as they ran when resumed);
    # and the coordinator's synthesis when the run ended (its last finalize). shared_memory: its step agents share notes.
    coordinator = models.CharField(max_length=12, default="off")
    summary = models.TextField(blank=True, default="")
    shared_memory = models.BooleanField(default=False)
    # A trial of an experiment (runtime.evals): the experiment it belongs to, and the forEach items its case gives
    # ({step id: [items]}), which replace those steps' own for this run only (the version's document is unchanged).
    experiment = models.ForeignKey("runtime.Experiment", null=True, blank=True, on_delete=models.SET_NULL, related_name="runs")
    case_items = models.JSONField(null=True, blank=True)
    # The workflow's pinned outputs as the run took them when it was created (step path -> {content, result?}):
    # those executions answer without their provider (runtime.engine.options.RunOptions.pins); {}: none, or pins off.
    pins = models.JSONField(default=dict, blank=True)

    objects = RunQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]
        indexes = (models.Index(fields=["owner", "status"]), models.Index(fields=["workspace", "status"]), models.Index(fields=["status", "heartbeat_at"]),
                   # The runs list pages a workspace's runs newest first (runs.list_runs): read in order, not sorted.
                   models.Index(fields=["workspace", "-created_at", "-id"], name="run_workspace_newest"))

    def __str__(self) -> str:
        return f"run {self.pk} ({self.status})"

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES


class RunEvent(models.Model):
    """One engine event, as emitted. Append-only.

    The event is kept as the JSON text it was broadcast as: serialised once,
    sent to websockets as it is stored, parsed only where a view needs fields.
    """

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events")
    seq = models.BigIntegerField()
    type = models.CharField(max_length=40)
    step_id = models.CharField(max_length=300, blank=True, default="")
    event_json = models.TextField()
    # Emitted by an attempt that did not reach its next boundary (its worker was lost): kept, not replayed.
    superseded = models.BooleanField(default=False, db_default=False)  # the recorder inserts rows with raw SQL

    class Meta:
        ordering: ClassVar[list[str]] = ["seq"]
        constraints = (models.UniqueConstraint(fields=["run", "seq"], name="unique_run_event_seq"),)

    def __str__(self) -> str:
        return f"run {self.run_id} event {self.seq} ({self.type})"

    @property
    def event(self) -> dict:
        return json.loads(self.event_json)


class RunIteration(models.Model):
    """One loop iteration or forEach item, derived from iteration and verdict events."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="iterations")
    step_id = models.CharField(max_length=300)
    iteration = models.IntegerField(null=True, blank=True)
    index = models.IntegerField(null=True, blank=True)
    item = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=12, default="running")
    content = models.TextField(blank=True, default="")
    result = models.JSONField(null=True, blank=True)
    verdict = models.JSONField(null=True, blank=True)
    tokens = models.BigIntegerField(default=0)
    duration_ms = models.FloatField(null=True, blank=True)
    started_seq = models.BigIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["step_id", "iteration", "index"]
        constraints = (models.UniqueConstraint(fields=["run", "step_id", "iteration", "index"], name="unique_run_iteration"),)

    def __str__(self) -> str:
        where = f"item {self.index}" if self.index is not None else f"iteration {self.iteration}"
        return f"run {self.run_id} {self.step_id} {where}"


class WorkspaceUpload(models.Model):
    """A zip a user uploaded to start a run's workspace from. Kept in the database, so a worker on
    another machine can unpack it; checked (paths, sizes, file count) when uploaded."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="workspace_uploads")
    name = models.CharField(max_length=255, blank=True, default="")
    data = models.BinaryField()
    files = models.IntegerField(default=0)
    size = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name or str(self.pk)


class WorkspaceSnapshot(models.Model):
    """A run's workspace at one moment (after a step or an iteration): its manifest and change counts."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="snapshots")
    number = models.IntegerField()
    label = models.CharField(max_length=300)
    step_id = models.CharField(max_length=300, blank=True, default="")
    workspace = models.CharField(max_length=300, default="run")
    base = models.IntegerField(null=True, blank=True)
    manifest = models.JSONField(default=dict)   # path -> [size, mtime_ns, sha256]
    files = models.IntegerField(default=0)
    added = models.IntegerField(default=0)
    modified = models.IntegerField(default=0)
    removed = models.IntegerField(default=0)
    partial = models.BooleanField(default=False)
    # Why some of its new contents were not kept (its run's or workspace's snapshot storage was full); "" if all were.
    note = models.CharField(max_length=300, blank=True, default="")
    # Its symbolic links, path -> target as written: listed, never followed, so no content of theirs is kept.
    links = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["number"]
        constraints = (models.UniqueConstraint(fields=["run", "number"], name="unique_run_snapshot"),)

    def __str__(self) -> str:
        return f"run {self.run_id} snapshot {self.number} ({self.label})"


class WorkspaceBlob(models.Model):
    """One file content of a run's workspace, by SHA-256 (stored once per run, whatever the snapshots)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="blobs")
    digest = models.CharField(max_length=64)
    data = models.BinaryField()
    size = models.BigIntegerField(default=0)   # len(data): the snapshot storage caps sum it (RUN_SNAPSHOT_MB)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["run", "digest"], name="unique_run_blob"),)
        # The caps' sums read the index alone: size sits after data in the row, and reading it there walks each
        # content's overflow pages (SQLite), gigabytes for a workspace at its cap.
        indexes = (models.Index(fields=["run", "size"], name="blob_run_size"),)

    def __str__(self) -> str:
        return self.digest


class ToolApproval(models.Model):
    """A tool call waiting for a person, and the decision (the API writes it; the executing worker reads it)."""

    PENDING, APPROVED, DENIED, CANCELLED = "pending", "approved", "denied", "cancelled"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="approvals")
    call_id = models.CharField(max_length=200)
    tool = models.CharField(max_length=100)
    step_id = models.CharField(max_length=300, blank=True, default="")
    status = models.CharField(max_length=10, default=PENDING)
    reason = models.TextField(blank=True, default="")
    actor = models.CharField(max_length=150, blank=True, default="")
    delivered = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["run", "call_id"], name="unique_run_tool_call"),)
        indexes = (models.Index(fields=["run", "status", "delivered"]),)

    def __str__(self) -> str:
        return f"{self.tool} call {self.call_id} ({self.status})"


# ---------------------------------------------------------------- evaluations (runtime.evals)


class Dataset(models.Model):
    """A workflow's cases to measure it on, with its scorers; every save is a version (as workflows are)."""

    workspace = models.ForeignKey("accounts.Workspace", on_delete=models.CASCADE, related_name="datasets")
    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="datasets")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="datasets")
    name = models.CharField(max_length=200)
    current_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-updated_at"]

    def __str__(self) -> str:
        return f"dataset {self.name} (v{self.current_version})"


class DatasetVersion(models.Model):
    """One saved state of a dataset: its cases and scorers (runtime.evals.cases, runtime.evals.scorers)."""

    dataset = models.ForeignKey(Dataset, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    cases = models.JSONField(default=list)
    scorers = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-number"]
        constraints = (models.UniqueConstraint(fields=["dataset", "number"], name="unique_dataset_version"),)

    def __str__(self) -> str:
        return f"dataset {self.dataset_id} v{self.number}"


class Experiment(models.Model):
    """A workflow version run over a dataset version, ``trials`` times per case, as ordinary runs."""

    workspace = models.ForeignKey("accounts.Workspace", on_delete=models.CASCADE, related_name="experiments")
    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="experiments")
    version = models.ForeignKey(WorkflowVersion, on_delete=models.CASCADE, related_name="experiments")
    dataset_version = models.ForeignKey(DatasetVersion, on_delete=models.CASCADE, related_name="experiments")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="experiments")
    name = models.CharField(max_length=200, blank=True, default="")
    trials = models.PositiveIntegerField(default=1)
    concurrency = models.PositiveIntegerField(default=4)
    # What every run of it is started with (the run dialog's provider, model, script, budgets ...).
    settings = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, default="running")  # running, completed, stopped, failed
    reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at"]

    def __str__(self) -> str:
        return f"experiment {self.pk} ({self.status})"


class Trial(models.Model):
    """One case's one trial in an experiment: its run once started, its scores once the run ended."""

    experiment = models.ForeignKey(Experiment, on_delete=models.CASCADE, related_name="trial_rows")
    case_id = models.CharField(max_length=200)
    trial = models.PositiveIntegerField()
    run = models.OneToOneField(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="trial")
    status = models.CharField(max_length=12, default="pending")  # pending, starting, running, scored, failed
    reason = models.TextField(blank=True, default="")
    scores = models.JSONField(default=dict, blank=True)   # scorer name -> {score, passed, reason}
    score = models.FloatField(null=True, blank=True)      # the mean of its scorers' scores
    judge_tokens = models.BigIntegerField(default=0)      # what LLM judge scorers spent on it
    judge_cost_usd = models.FloatField(default=0.0)

    class Meta:
        ordering: ClassVar[list[str]] = ["id"]
        constraints = (models.UniqueConstraint(fields=["experiment", "case_id", "trial"], name="unique_experiment_trial"),)
        indexes = (models.Index(fields=["experiment", "status"]),)

    def __str__(self) -> str:
        return f"experiment {self.experiment_id} {self.case_id}#{self.trial}"


class RoundLabel(models.Model):
    """A person's word on one round of a judged loop: was its output good enough (runtime.evals.judging)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="round_labels")
    step_id = models.CharField(max_length=300)
    iteration = models.IntegerField()
    good = models.BooleanField()
    labelled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    labelled_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["run", "step_id", "iteration"]
        constraints = (models.UniqueConstraint(fields=["run", "step_id", "iteration"], name="unique_round_label"),)

    def __str__(self) -> str:
        return f"run {self.run_id} {self.step_id}.{self.iteration}: {'good' if self.good else 'not good'}"

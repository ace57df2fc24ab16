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
    script = models.JSONField(null=True, blank=True)
    budgets = models.JSONField(default=dict, blank=True)
    policies = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=RunStatus.choices, default=RunStatus.QUEUED)
    reason = models.TextField(blank=True, default="")
    backend = models.CharField(max_length=12, default="inline")
    # What the user asked for while the run executes elsewhere (celery): pause, resume, stop.
    control_request = models.CharField(max_length=12, blank=True, default="")
    control_by = models.CharField(max_length=150, blank=True, default="")  # who asked, for the run_control event
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

"""Run records. Events are the source of truth; iteration rows are derived from them."""
from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from designer.models import Workflow, WorkflowVersion
from runtime.contract import ACTIVE_RUN_STATUSES, FINAL_RUN_STATUSES, RUN_STATUSES

# A run's statuses are the contract's (runtime/contract.py), as choices for the column.
RunStatus = models.TextChoices("RunStatus", [(s.name, s.value) for s in RUN_STATUSES])
ACTIVE_STATUSES = tuple(RunStatus(s.value) for s in ACTIVE_RUN_STATUSES)
FINAL_STATUSES = tuple(RunStatus(s.value) for s in FINAL_RUN_STATUSES)


class RunQuerySet(models.QuerySet):
    def labelled(self):
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
    tokens_prompt = models.BigIntegerField(default=0)
    tokens_completion = models.BigIntegerField(default=0)
    cost_usd = models.FloatField(default=0.0)
    # Models whose price is not known: their calls are not in cost_usd, and the run says so.
    unpriced_models = models.JSONField(default=list, blank=True)
    loops = models.JSONField(default=dict, blank=True)
    last_seq = models.BigIntegerField(default=0)

    objects = RunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "status"]), models.Index(fields=["workspace", "status"]), models.Index(fields=["status", "heartbeat_at"])]

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

    @property
    def event(self) -> dict:
        import json

        return json.loads(self.event_json)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="unique_run_event_seq")]


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
        ordering = ["step_id", "iteration", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "step_id", "iteration", "index"], name="unique_run_iteration")]

"""Saved workflows: every save is a version; a run points at the exact version it ran."""
from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models


class Workflow(models.Model):
    # Who made it; the workspace decides who may read, run or edit it.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="workflows")
    workspace = models.ForeignKey("accounts.Workspace", on_delete=models.CASCADE, related_name="workflows")
    name = models.CharField(max_length=200)
    current_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Where its runs hold for someone to look (designer.breakpoints): kept here, never in a version's document.
    breakpoints = models.JSONField(default=list, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-updated_at"]
        indexes = (models.Index(fields=["owner", "-updated_at"]), models.Index(fields=["workspace", "-updated_at"]))

    def __str__(self) -> str:
        return f"{self.name} (v{self.current_version})"

    def latest(self) -> WorkflowVersion:
        return self.versions.get(number=self.current_version)


class WorkflowVersion(models.Model):
    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    # The document as data, and the text it came from (so comments survive export).
    document = models.JSONField()
    source = models.TextField(blank=True, default="")
    # Editor positions and the like: kept beside the document, never inside it.
    layout = models.JSONField(default=dict, blank=True)
    valid = models.BooleanField(default=False)
    # Where the main document sits in the workflow's folder ("" for a one-file workflow); its other files are `files`.
    main_path = models.CharField(max_length=1000, blank=True, default="")
    # The version the playground's Apply changed to make this one (null: saved any other way): the editor opens
    # such a version with one undo step back to that one (frontend/src/editor/applyUndo.ts).
    applied_from = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-number"]
        constraints = (models.UniqueConstraint(fields=["workflow", "number"], name="unique_workflow_version"),)

    def __str__(self) -> str:
        return f"workflow {self.workflow_id} v{self.number}"


class FileBlob(models.Model):
    """A file's content, stored once whatever the number of versions (and workflows) that hold it."""

    sha256 = models.CharField(max_length=64, primary_key=True)
    size = models.PositiveBigIntegerField()
    data = models.BinaryField()

    def __str__(self) -> str:
        return self.sha256


class VersionFile(models.Model):
    """One file of a version's folder: an included workflow, an `@` prompt, a context file."""

    version = models.ForeignKey(WorkflowVersion, on_delete=models.CASCADE, related_name="files")
    path = models.CharField(max_length=1000)  # relative, posix, normalised (designer.folders)
    blob = models.ForeignKey(FileBlob, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering: ClassVar[list[str]] = ["path"]
        constraints = (models.UniqueConstraint(fields=["version", "path"], name="unique_version_file_path"),)

    def __str__(self) -> str:
        return self.path


class StepPin(models.Model):
    """A pinned output (issue #33): "use this instead of asking the model" for one agent execution of the workflow.

    It lives beside the workflow, never in its document (so never in its YAML or export). ``step_path`` is the
    execution's place as the engine names it (``draft``, ``dev.2.draft``, ``dev.2.untilAgent``); a run started with
    pins on takes ``content`` (and ``result``, when ``has_result``) there without calling its provider. The run it was
    taken from is kept as plain text: designer sits below runtime and knows no runs.
    """

    workflow = models.ForeignKey(Workflow, on_delete=models.CASCADE, related_name="pins")
    step_path = models.CharField(max_length=300)
    content = models.TextField(blank=True, default="")
    result = models.JSONField(null=True, blank=True)
    has_result = models.BooleanField(default=False)
    source_run = models.CharField(max_length=64, blank=True, default="")
    source_version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["step_path"]
        constraints = (models.UniqueConstraint(fields=["workflow", "step_path"], name="unique_workflow_step_pin"),)

    def __str__(self) -> str:
        return f"pin {self.step_path} of workflow {self.workflow_id}"

"""Housekeeping tied to rows: a run's workspace directory goes when the run goes (however it is deleted:
by itself, with its workflow, or with its team's workspace)."""
from __future__ import annotations

from django.db.models.signals import post_delete

from runtime.durability import run_files
from runtime.models import Run


def delete_run_files(sender: type[Run], instance: Run, **kwargs: object) -> None:
    run_files.delete_files(instance.pk)


def connect() -> None:
    # A module-level receiver: a closure defined in ready() would be garbage-collected (weak references).
    post_delete.connect(delete_run_files, sender=Run, dispatch_uid="runtime.delete_run_files")

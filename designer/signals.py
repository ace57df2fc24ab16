"""Housekeeping tied to rows: a workflow's stored files (content-addressed, shared between versions and
workflows) go when the last workflow holding them goes, however it is deleted: through the API, with its
workspace, with its owner (a user deleted, one by one or in bulk), or by any other queryset delete."""
from __future__ import annotations

from django.db.models.signals import post_delete, pre_delete

from designer import bundles
from designer.models import Workflow

_HELD = "_stored_blobs_held"


def note_held_blobs(sender: type[Workflow], instance: Workflow, **kwargs: object) -> None:
    # Read before anything is deleted: by post_delete its versions' file rows are gone.
    setattr(instance, _HELD, bundles.blobs_of(instance))


def drop_unheld_blobs(sender: type[Workflow], instance: Workflow, **kwargs: object) -> None:
    held = getattr(instance, _HELD, None)
    if held:
        bundles.drop_unheld(held)


def connect() -> None:
    # Module-level receivers: closures defined in ready() would be garbage-collected (weak references).
    pre_delete.connect(note_held_blobs, sender=Workflow, dispatch_uid="designer.note_held_blobs")
    post_delete.connect(drop_unheld_blobs, sender=Workflow, dispatch_uid="designer.drop_unheld_blobs")

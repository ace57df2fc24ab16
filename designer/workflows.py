"""Saved workflows: create, save a version, read, duplicate, export. Every query is scoped to its owner."""
from __future__ import annotations

import json
from typing import Any

from django.db import transaction
from django.http import Http404

from designer import services
from designer.documents import Loaded
from designer.errors import BadRequest, DocumentInvalid
from designer.models import Workflow, WorkflowVersion

MAX_LAYOUT_BYTES = 512 * 1024


def owned(user, workflow_id: int) -> Workflow:
    try:
        return Workflow.objects.get(pk=workflow_id, owner=user)
    except (Workflow.DoesNotExist, ValueError, TypeError):
        # Someone else's workflow answers exactly like a missing one.
        raise Http404(f"workflow {workflow_id} not found") from None


def _name_for(loaded: Loaded, fallback: str | None) -> str:
    if fallback:
        return fallback[:200]
    if loaded.parsed and isinstance(loaded.document.get("name"), str) and loaded.document["name"].strip():
        return loaded.document["name"][:200]
    return "Untitled workflow"


def _checked_layout(layout: Any) -> dict:
    if layout is None:
        return {}
    if not isinstance(layout, dict):
        raise BadRequest("`layout` must be an object")
    if len(json.dumps(layout)) > MAX_LAYOUT_BYTES:
        raise BadRequest("`layout` is larger than 512 KiB")
    return layout


def _storable(loaded: Loaded) -> None:
    """Drafts with errors are saved; text that is not a document at all (or is over a cap) is refused."""
    if not loaded.parsed:
        errors = loaded.report.errors
        reason = f": {errors[0].message}" if errors else ""
        raise DocumentInvalid(f"not a workflow document that can be saved{reason}", [d.as_dict() for d in errors])


def create(user, *, source: str | None, document: Any, name: str | None = None, layout: Any = None) -> Workflow:
    # Checked before the transaction: the check runs in a worker process and may take a while.
    loaded = services.check(source, document)
    _storable(loaded)
    layout = _checked_layout(layout)
    with transaction.atomic():
        workflow = Workflow.objects.create(owner=user, name=_name_for(loaded, name), current_version=1)
        _add_version(workflow, 1, loaded, layout)
    return workflow


def _add_version(workflow: Workflow, number: int, loaded: Loaded, layout: dict) -> WorkflowVersion:
    return WorkflowVersion.objects.create(
        workflow=workflow, number=number, document=loaded.document,
        source=loaded.source or "", layout=layout, valid=loaded.valid,
    )


def save_version(user, workflow_id: int, *, source: str | None, document: Any, layout: Any = None, name: str | None = None) -> Workflow:
    owned(user, workflow_id)
    given = source is not None or document is not None
    loaded = services.check(source, document) if given else None
    if loaded is not None:
        _storable(loaded)
    new_layout = _checked_layout(layout) if layout is not None else None
    with transaction.atomic():
        workflow = Workflow.objects.select_for_update().get(pk=owned(user, workflow_id).pk)
        current = workflow.latest()
        if loaded is None:
            # A layout-only save keeps the document of the current version.
            loaded = services.check(current.source or None, None if current.source else current.document)
            _storable(loaded)
        number = workflow.current_version + 1
        _add_version(workflow, number, loaded, new_layout if new_layout is not None else current.layout)
        workflow.current_version = number
        workflow.name = _name_for(loaded, name)
        workflow.save()
    return workflow


@transaction.atomic
def duplicate(user, workflow_id: int) -> Workflow:
    original = owned(user, workflow_id)
    latest = original.latest()
    copy = Workflow.objects.create(owner=user, name=f"{original.name} (copy)"[:200], current_version=1)
    WorkflowVersion.objects.create(workflow=copy, number=1, document=latest.document, source=latest.source, layout=latest.layout, valid=latest.valid)
    return copy


def delete(user, workflow_id: int) -> None:
    owned(user, workflow_id).delete()


def version(user, workflow_id: int, number: int | None = None) -> WorkflowVersion:
    workflow = owned(user, workflow_id)
    try:
        return workflow.versions.get(number=number or workflow.current_version)
    except WorkflowVersion.DoesNotExist:
        raise Http404(f"workflow {workflow_id} has no version {number}") from None


def export(user, workflow_id: int, fmt: str) -> tuple[str, str]:
    """(filename, text) of the current version's canonical form; refuses invalid documents."""
    current = version(user, workflow_id)
    loaded, text = services.export(current.source, current.document, fmt)
    if text is None:
        raise DocumentInvalid("the workflow has errors; fix them before exporting", [d.as_dict() for d in loaded.report.errors])
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in current.workflow.name).strip("-") or "workflow"
    return f"{stem}.{'json' if fmt == 'json' else 'yaml'}", text

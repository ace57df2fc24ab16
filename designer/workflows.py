"""Saved workflows: create, save a version, read, duplicate, export. Every query is scoped to its owner."""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import Http404

from designer.documents import Loaded, dump_json, dump_yaml
from designer.errors import BadRequest, DocumentInvalid
from designer.models import Workflow, WorkflowVersion
from designer.services import load_input

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
    import json

    if len(json.dumps(layout)) > MAX_LAYOUT_BYTES:
        raise BadRequest("`layout` is larger than 512 KiB")
    return layout


def _storable(loaded: Loaded) -> None:
    """Drafts with errors are saved; text that is not a document at all is refused."""
    if not loaded.parsed:
        raise DocumentInvalid("the text is not a workflow document", [d.as_dict() for d in loaded.report.errors])


@transaction.atomic
def create(user, *, source: str | None, document: Any, name: str | None = None, layout: Any = None) -> Workflow:
    loaded = load_input(source, document)
    _storable(loaded)
    workflow = Workflow.objects.create(owner=user, name=_name_for(loaded, name), current_version=1)
    _add_version(workflow, 1, loaded, _checked_layout(layout))
    return workflow


def _add_version(workflow: Workflow, number: int, loaded: Loaded, layout: dict) -> WorkflowVersion:
    return WorkflowVersion.objects.create(
        workflow=workflow, number=number, document=loaded.document,
        source=loaded.source or "", layout=layout, valid=loaded.valid,
    )


@transaction.atomic
def save_version(user, workflow_id: int, *, source: str | None, document: Any, layout: Any = None, name: str | None = None) -> Workflow:
    workflow = Workflow.objects.select_for_update().get(pk=owned(user, workflow_id).pk)
    if source is None and document is None:
        # A layout-only save keeps the document of the current version.
        current = workflow.latest()
        loaded = load_input(current.source or None, None if current.source else current.document)
    else:
        loaded = load_input(source, document)
    _storable(loaded)
    previous_layout = workflow.latest().layout
    number = workflow.current_version + 1
    _add_version(workflow, number, loaded, _checked_layout(layout) if layout is not None else previous_layout)
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
    loaded = load_input(current.source or None, None if current.source else current.document)
    if not loaded.valid:
        raise DocumentInvalid("the workflow has errors; fix them before exporting", [d.as_dict() for d in loaded.report.errors])
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in current.workflow.name).strip("-") or "workflow"
    if fmt == "json":
        return f"{stem}.json", dump_json(loaded.document)
    return f"{stem}.yaml", dump_yaml(loaded.document, source=current.source or None)

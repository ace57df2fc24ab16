"""Saved workflows: create, save a version, read, duplicate, move, export.

Every query is scoped to the caller's workspaces (accounts.workspaces): reading needs any role,
changing needs editor or above; someone who is not a member is answered as if it did not exist.
"""
from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from django.db import transaction
from django.db.models import BooleanField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404

from accounts import audit
from accounts.workspaces import Need, allows, chosen, member_workspace_ids, require, role_of
from designer import bundles, services
from designer.documents import Loaded
from designer.errors import BadRequest, DocumentInvalid
from designer.folders import PathRefused, clean_path, joined
from designer.models import VersionFile, Workflow, WorkflowVersion
from designer.resolve import include_path

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import WithAnnotations

MAX_LAYOUT_BYTES = 512 * 1024
PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


def reachable(user: User, workflow_id: int, need: Need = Need.READ) -> Workflow:
    try:
        workflow = Workflow.objects.select_related("workspace").get(pk=workflow_id)
    except (Workflow.DoesNotExist, ValueError, TypeError):
        raise Http404(f"workflow {workflow_id} not found") from None
    # Another workspace's workflow answers exactly like a missing one.
    require(user, workflow.workspace_id, need, f"workflow {workflow_id}")
    return workflow


def listed(user: User, workspace_id: int | None = None) -> QuerySet[Workflow]:
    """The workflows of one workspace (checked), or of every workspace the user is in."""
    if workspace_id is not None:
        require(user, workspace_id, Need.READ, "workspace")
        return Workflow.objects.filter(workspace_id=workspace_id)
    return Workflow.objects.filter(workspace_id__in=member_workspace_ids(user))


# ---------------------------------------------------------------- the list's search and pages

@dataclass(frozen=True)
class WorkflowFilters:
    q: str = ""                           # a case-insensitive piece of the name
    valid: bool | None = None             # the current version's validity
    updated_after: datetime | None = None   # updated at or after
    updated_before: datetime | None = None  # updated before


class CurrentValid(TypedDict):
    """What :func:`search` annotates each workflow with: whether its current version is valid."""

    current_valid: bool


if TYPE_CHECKING:
    # A listed workflow: the model with the column :func:`search` adds, which django-stubs then knows.
    Listed: TypeAlias = WithAnnotations[Workflow, CurrentValid]


def search(user: User, workspace_id: int | None, filters: WorkflowFilters) -> QuerySet[Listed]:
    """The workflows the user may read (as ``listed``) that pass the filters, newest first, each with
    ``current_valid``: the id breaks ties, so pages neither repeat nor skip one."""
    current = WorkflowVersion.objects.filter(workflow=OuterRef("pk"), number=OuterRef("current_version"))
    rows = listed(user, workspace_id).annotate(
        # A workflow without its current version (never seen, but possible) is listed as not valid.
        current_valid=Coalesce(Subquery(current.values("valid")[:1]), Value(False), output_field=BooleanField()))
    if filters.q.strip():
        rows = rows.filter(name__icontains=filters.q.strip())
    if filters.valid is not None:
        rows = rows.filter(current_valid=filters.valid)
    if filters.updated_after is not None:
        rows = rows.filter(updated_at__gte=filters.updated_after)
    if filters.updated_before is not None:
        rows = rows.filter(updated_at__lt=filters.updated_before)
    return rows.order_by("-updated_at", "-id")


def page(rows: QuerySet[Listed], limit: int = PAGE_SIZE, offset: int = 0) -> tuple[list[Listed], int]:
    """One page of ``rows`` and how many there are in all."""
    if not 1 <= limit <= MAX_PAGE_SIZE:
        raise BadRequest(f"`limit`: {limit} is out of range (1 to {MAX_PAGE_SIZE})")
    if offset < 0:
        raise BadRequest(f"`offset`: {offset} is negative")
    return list(rows.select_related("workspace")[offset:offset + limit]), rows.count()


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


def create(user: User, *, source: str | None, document: Any, name: str | None = None, layout: Any = None,
           workspace_id: int | None = None, files: dict[str, bytes] | None = None, main_path: str = "") -> Workflow:
    """A new workflow in the workspace named (editor or above), or in the user's personal one.

    ``files`` (relative path -> bytes) make it a folder whose main document sits at ``main_path``: its includes,
    ``@`` files and context files are checked against them."""
    workspace = chosen(user, workspace_id, Need.EDIT)
    # Checked before the transaction: the check runs in a worker process and may take a while.
    loaded = services.check(source, document)
    _storable(loaded)
    if files:
        loaded.report.extend(bundles.folder_problems(loaded.document, files, main_path))
    layout = _checked_layout(layout)
    with transaction.atomic():
        workflow = Workflow.objects.create(owner=user, workspace=workspace, name=_name_for(loaded, name), current_version=1)
        version = _add_version(workflow, 1, loaded, layout)
        if files or main_path:
            version.main_path = main_path
            version.save(update_fields=["main_path"])
            bundles.store_files(version, files or {})
    return workflow


def _add_version(workflow: Workflow, number: int, loaded: Loaded, layout: dict, files_from: WorkflowVersion | None = None,
                 applied_from: int | None = None) -> WorkflowVersion:
    """A new version; ``files_from``'s folder comes along unchanged (the same stored files, not copies)."""
    if files_from is not None:
        loaded.report.extend(bundles.stored_problems(loaded.document, files_from))
    version = WorkflowVersion.objects.create(
        workflow=workflow, number=number, document=loaded.document,
        source=loaded.source or "", layout=layout, valid=loaded.valid, applied_from=applied_from,
    )
    bundles.carry_files(files_from, version)
    return version


def save_version(user: User, workflow_id: int, *, source: str | None, document: Any, layout: Any = None, name: str | None = None,
                 applied_from: int | None = None) -> Workflow:
    """A new latest version. ``applied_from``: the playground's Apply made it by changing that version."""
    reachable(user, workflow_id, Need.EDIT)
    given = source is not None or document is not None
    loaded = services.check(source, document) if given else None
    if loaded is not None:
        _storable(loaded)
    new_layout = _checked_layout(layout) if layout is not None else None
    with transaction.atomic():
        workflow = Workflow.objects.select_for_update().get(pk=reachable(user, workflow_id, Need.EDIT).pk)
        current = workflow.latest()
        if loaded is None:
            # A layout-only save keeps the document of the current version.
            loaded = services.check(current.source or None, None if current.source else current.document)
            _storable(loaded)
        number = workflow.current_version + 1
        _add_version(workflow, number, loaded, new_layout if new_layout is not None else current.layout, files_from=current,
                     applied_from=applied_from)
        workflow.current_version = number
        workflow.name = _name_for(loaded, name)
        workflow.save()
    return workflow



def restore(user: User, workflow_id: int, number: int) -> Workflow:
    """A new latest version holding version ``number``'s document and layout (editor or above).

    The old versions stay as they are: restoring is a save of an earlier document, never a rewind."""
    workflow = reachable(user, workflow_id, Need.EDIT)
    try:
        if not 1 <= number < 2**31:  # a number the database cannot hold names no version
            raise WorkflowVersion.DoesNotExist
        old = workflow.versions.get(number=number)
    except WorkflowVersion.DoesNotExist:
        raise Http404(f"workflow {workflow_id} has no version {number}") from None
    # Checked again: the checker may have changed since that version was saved, and the new version says what it says today.
    loaded = services.check(old.source or None, None if old.source else old.document)
    _storable(loaded)
    with transaction.atomic():
        workflow = Workflow.objects.select_for_update().get(pk=workflow.pk)
        new_number = workflow.current_version + 1
        _add_version(workflow, new_number, loaded, old.layout or {}, files_from=old)
        workflow.current_version = new_number
        workflow.name = _name_for(loaded, None)
        workflow.save()
    return workflow

@transaction.atomic
def duplicate(user: User, workflow_id: int) -> Workflow:
    """A copy in the same workspace when the user may edit there, else in their personal workspace."""
    original = reachable(user, workflow_id)
    target = original.workspace if allows(role_of(user, original.workspace_id), Need.EDIT) else chosen(user, None)
    latest = original.latest()
    copy = Workflow.objects.create(owner=user, workspace=target, name=f"{original.name} (copy)"[:200], current_version=1)
    version = WorkflowVersion.objects.create(workflow=copy, number=1, document=latest.document, source=latest.source,
                                             layout=latest.layout, valid=latest.valid)
    bundles.carry_files(latest, version)
    return copy


@transaction.atomic
def delete(user: User, workflow_id: int) -> None:
    """Delete a workflow with its versions, and the stored files no other workflow holds (designer.signals)."""
    reachable(user, workflow_id, Need.EDIT).delete()


@transaction.atomic
def move(user: User, workflow_id: int, workspace_id: int) -> Workflow:
    """Hand a workflow to another workspace: editor or above in both. Its runs stay where they ran."""
    workflow = reachable(user, workflow_id, Need.EDIT)
    target = chosen(user, workspace_id, Need.EDIT)
    if target.pk != workflow.workspace_id:
        source_id = workflow.workspace_id
        workflow.workspace = target
        workflow.save(update_fields=["workspace"])
        for side in (source_id, target.pk):
            audit.record(side, user, "workflow_moved", workflow=workflow.name, workflow_id=workflow.pk,
                         source=source_id, target=target.pk)
    return workflow


def version(user: User, workflow_id: int, number: int | None = None) -> WorkflowVersion:
    workflow = reachable(user, workflow_id)
    try:
        return workflow.versions.get(number=number or workflow.current_version)
    except WorkflowVersion.DoesNotExist:
        raise Http404(f"workflow {workflow_id} has no version {number}") from None


def export(user: User, workflow_id: int, fmt: str) -> tuple[str, str]:
    """(filename, text) of the current version's canonical form; refuses invalid documents."""
    current = version(user, workflow_id)
    loaded, text = services.export(current.source, current.document, fmt)
    if text is None:
        raise DocumentInvalid("the workflow has errors; fix them before exporting", [d.as_dict() for d in loaded.report.errors])
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in current.workflow.name).strip("-") or "workflow"
    return f"{stem}.{'json' if fmt == 'json' else 'yaml'}", text


def save_file(user: User, workflow_id: int, path: str, content: bytes | None, rename_to: str | None = None) -> Workflow:
    """A new version whose folder has one file written, deleted (``content`` None) or renamed; the main document
    is re-checked against the new folder (a deleted include makes it invalid and says which)."""
    try:
        path = clean_path(path)
        rename_to = clean_path(rename_to) if rename_to is not None else None
    except PathRefused as exc:
        raise BadRequest(str(exc)) from None
    reachable(user, workflow_id, Need.EDIT)
    with transaction.atomic():
        workflow = Workflow.objects.select_for_update().get(pk=workflow_id)
        current = workflow.latest()
        index = bundles.changed_folder(current, path, content, rename_to)
        number = workflow.current_version + 1
        version = WorkflowVersion.objects.create(workflow=workflow, number=number, document=current.document,
                                                 source=current.source, layout=current.layout, valid=False,
                                                 main_path=current.main_path or "workflow.yaml")
        VersionFile.objects.bulk_create([VersionFile(version=version, path=p, blob_id=b) for p, b in index.items()])
        loaded = services.check(current.source or None, None if current.source else current.document)
        loaded.report.extend(bundles.stored_problems(loaded.document, version))
        version.valid = loaded.valid
        version.save(update_fields=["valid"])
        workflow.current_version = number
        workflow.save()
    return workflow


def saved_include(workspace_id: int, ref: str) -> Workflow | None:
    """The saved workflow an include names when its folder has no such file: by name or file stem, newest first."""
    stem = ref.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return Workflow.objects.filter(workspace_id=workspace_id, name__in=[ref, stem]).order_by("-updated_at").first()


def include_targets(user: User, workflow_id: int, number: int | None = None) -> list[dict]:
    """What each include step of a version runs: a file of its folder, a saved workflow (which, at which version:
    the latest, as a run takes it), or nothing yet; the rule a run follows, in this order."""
    found = version(user, workflow_id, number)
    folder = bundles.StoredFolder(found)
    base = posixpath.dirname(found.main_path)
    out = []
    for path, step in _include_steps(found.document):
        ref = include_path(found.document, step["include"])
        entry: dict[str, Any] = {"path": path, "step": step.get("id"), "ref": ref}
        try:
            local = joined(base, ref)
        except PathRefused as exc:
            out.append({**entry, "kind": "missing", "message": str(exc)})
            continue
        saved = None if folder.size(local) is not None else saved_include(found.workflow.workspace_id, ref)
        if folder.size(local) is not None:
            entry.update(kind="file", file=local)
        elif saved is not None:
            latest = saved.latest()
            entry.update(kind="saved", workflow_id=saved.pk, name=saved.name, version=latest.number, valid=latest.valid)
        else:
            entry.update(kind="missing", message=f"no file {local!r} in the folder and no saved workflow named {ref!r}")
        out.append(entry)
    return out


def _include_steps(document: Any, path: str = "/steps") -> Iterator[tuple[str, dict]]:
    steps = document.get("steps") if isinstance(document, dict) else None
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if not isinstance(step, dict):
            continue
        if isinstance(step.get("include"), str) and step["include"]:
            yield f"{path}/{i}", step
        loop = step.get("loop")
        if isinstance(loop, dict):
            yield from _include_steps(loop, f"{path}/{i}/loop/steps")


@transaction.atomic
def import_bundle(user: User, data: bytes, *, main: str | None, workspace_id: int | None) -> tuple[list[Workflow], dict[str, str]]:
    """Every workflow a zip (a folder) makes, created together (all or none); returns (workflows, skipped)."""
    planned = bundles.plan(bundles.read_bundle(data), main)
    made = []
    for item in planned.workflows:
        loaded = services.check(item.text, None)
        named = loaded.parsed and isinstance(loaded.document.get("name"), str) and loaded.document["name"].strip()
        stem = posixpath.splitext(posixpath.basename(item.main_path))[0]
        made.append(create(user, source=item.text, document=None, name=None if named else stem,
                                     workspace_id=workspace_id, files=item.files, main_path=item.main_path))
    return made, planned.skipped

"""Workflows as folders over HTTP: import a zip, list a version's files, read one, export the folder as a zip.
Views stay thin over designer.workflows and designer.bundles."""
from __future__ import annotations

import base64
import binascii
from typing import Any, Optional

from django.http import Http404, HttpResponse
from ninja import File, Form, Query, Router, Status
from ninja.files import UploadedFile

from accounts.tokens import API_AUTH
from common.schemas import errors, file_answer
from common.types import ApiRequest
from designer import bundles, folder_changes, workflows
from designer.errors import BadRequest
from designer.folders import MAX_TOTAL_BYTES, PathRefused, clean_path
from designer.models import Workflow
from designer.schemas import BundleImportOut, FileIn, FileWrittenOut, FolderFileChangeOut, FolderFileContentOut, FolderFileOut, IncludeTargetOut

router = Router(tags=["workflows"], auth=API_AUTH)
MAX_TEXT_CHARS = 512 * 1024


def _summary(workflow: Workflow) -> dict[str, Any]:
    version = workflow.latest()
    return {"id": workflow.id, "name": workflow.name, "version": version.number, "valid": version.valid,
            "main_path": version.main_path, "files": version.files.count()}


@router.post("/workflows/import-bundle", response={201: BundleImportOut, **errors(400, 401, 403, 404, 413, 422)})
def import_bundle(request: ApiRequest, file: UploadedFile = File(...), main: Optional[str] = Form(None, max_length=1000),
                  workspace: Optional[int] = Form(None, ge=1, le=2**63 - 1)) -> Status[dict[str, Any]]:
    """A zip of a workflow's folder: the main file is `main`, or the only top-level workflow; `main=*` makes one
    workflow per top-level workflow file, each with the files it references."""
    if file.size is not None and file.size > MAX_TOTAL_BYTES:
        raise BadRequest(f"{file.name} is {file.size:,} bytes; a workflow's zip is at most {MAX_TOTAL_BYTES // 2**20} MiB", status=413)
    made, skipped = workflows.import_bundle(request.auth, file.read(), main=main, workspace_id=workspace)
    return Status(201, {"workflows": [_summary(w) for w in made], "skipped": skipped})


@router.get("/workflows/{workflow_id}/files", response={200: list[FolderFileOut], **errors(401, 404, 422)})
def list_files(request: ApiRequest, workflow_id: int, version: Optional[int] = Query(None, ge=1, le=2**31 - 1)) -> list[dict]:
    return bundles.listing(workflows.version(request.auth, workflow_id, version))


@router.get("/workflows/{workflow_id}/files/changes", response={200: list[FolderFileChangeOut], **errors(401, 404, 422)})
def file_changes(request: ApiRequest, workflow_id: int, a: int = Query(..., ge=1, le=2**31 - 1),
                 b: int = Query(..., ge=1, le=2**31 - 1)) -> list[dict]:
    """The folder files (not the main document) that differ from version `a` to version `b`, with both texts."""
    before = workflows.version(request.auth, workflow_id, a)
    return folder_changes.changes(before, workflows.version(request.auth, workflow_id, b))


@router.get("/workflows/{workflow_id}/file", response={200: FolderFileContentOut, **errors(400, 401, 404, 422)})
def read_file(request: ApiRequest, workflow_id: int, path: str = Query(..., max_length=1000),
              version: Optional[int] = Query(None, ge=1, le=2**31 - 1)) -> dict[str, Any]:
    """One file of the folder: its text (cut at 512 KiB), or null for a binary file, with its size."""
    found = workflows.version(request.auth, workflow_id, version)
    try:
        wanted = clean_path(path)
    except PathRefused as exc:
        raise BadRequest(f"path: {exc}") from None
    data = bundles.files_of(found).get(wanted)
    if data is None:
        raise Http404(f"workflow {workflow_id} version {found.number} has no file {wanted!r}")
    text = bundles.text_of(data)
    return {"path": wanted, "size": len(data), "text": text[:MAX_TEXT_CHARS] if text is not None else None,
            "truncated": text is not None and len(text) > MAX_TEXT_CHARS}


@router.put("/workflows/{workflow_id}/file", response={200: FileWrittenOut, **errors(400, 401, 403, 404, 413, 422)})
def write_file(request: ApiRequest, workflow_id: int, payload: FileIn) -> dict[str, Any]:
    """Write, delete or rename one file of the folder: a new version, the main document checked against it."""
    if payload.text is None and payload.base64 is None and not payload.delete and payload.rename_to is None:
        raise BadRequest("give `text`, `base64`, `delete: true` or `rename_to`")
    content: bytes | None = None
    if payload.base64 is not None:
        try:
            content = base64.b64decode(payload.base64, validate=True)
        except (binascii.Error, ValueError):
            raise BadRequest("base64: not valid base64") from None
    elif not payload.delete and payload.rename_to is None:
        content = (payload.text or "").encode("utf-8")
    workflow = workflows.save_file(request.auth, workflow_id, payload.path, content, payload.rename_to)
    version = workflow.latest()
    return {"version": version.number, "valid": version.valid, "files": bundles.listing(version)}


@router.get("/workflows/{workflow_id}/includes", response={200: list[IncludeTargetOut], **errors(401, 404, 422)},
             exclude_unset=True)
def include_targets(request: ApiRequest, workflow_id: int, version: Optional[int] = Query(None, ge=1, le=2**31 - 1)) -> list[dict]:
    """For each include step: the folder file it runs, or the saved workflow (and its version), or that it has none."""
    return workflows.include_targets(request.auth, workflow_id, version)


@router.get("/workflows/{workflow_id}/bundle.zip", response={**errors(401, 404, 422)},
            openapi_extra=file_answer("application/zip", "The version's folder as a zip"))
def export_bundle(request: ApiRequest, workflow_id: int, version: Optional[int] = Query(None, ge=1, le=2**31 - 1)) -> HttpResponse:
    """The version's main YAML and every file at its relative path, as a zip any zenflow runner runs as it is."""
    found = workflows.version(request.auth, workflow_id, version)
    name, data = bundles.export_zip(found, found.workflow.name)
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

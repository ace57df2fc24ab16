"""Workflows as folders over HTTP: import a zip, list a version's files, read one, export the folder as a zip.
Views stay thin over designer.workflows and designer.bundles."""
from __future__ import annotations

from typing import Optional

from django.http import Http404, HttpResponse
from ninja import File, Form, Query, Router, Status
from ninja.files import UploadedFile

from accounts.tokens import API_AUTH
from designer import bundles, workflows
from designer.errors import BadRequest
from designer.folders import MAX_TOTAL_BYTES, PathRefused, clean_path

router = Router(tags=["workflows"], auth=API_AUTH)
MAX_TEXT_CHARS = 512 * 1024


def _summary(workflow) -> dict:
    version = workflow.latest()
    return {"id": workflow.id, "name": workflow.name, "version": version.number, "valid": version.valid,
            "main_path": version.main_path, "files": version.files.count()}


@router.post("/workflows/import-bundle", response={201: dict})
def import_bundle(request, file: UploadedFile = File(...), main: Optional[str] = Form(None, max_length=1000),
                  workspace: Optional[int] = Form(None, ge=1, le=2**63 - 1)):
    """A zip of a workflow's folder: the main file is `main`, or the only top-level workflow; `main=*` makes one
    workflow per top-level workflow file, each with the files it references."""
    if file.size is not None and file.size > MAX_TOTAL_BYTES:
        raise BadRequest(f"{file.name} is {file.size:,} bytes; a workflow's zip is at most {MAX_TOTAL_BYTES // 2**20} MiB", status=413)
    made, skipped = workflows.import_bundle(request.auth, file.read(), main=main, workspace_id=workspace)
    return Status(201, {"workflows": [_summary(w) for w in made], "skipped": skipped})


@router.get("/workflows/{workflow_id}/files", response=list[dict])
def list_files(request, workflow_id: int, version: Optional[int] = Query(None, ge=1, le=2**31 - 1)):
    return bundles.listing(workflows.version(request.auth, workflow_id, version))


@router.get("/workflows/{workflow_id}/file", response=dict)
def read_file(request, workflow_id: int, path: str = Query(..., max_length=1000), version: Optional[int] = Query(None, ge=1, le=2**31 - 1)):
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


@router.get("/workflows/{workflow_id}/bundle.zip")
def export_bundle(request, workflow_id: int, version: Optional[int] = Query(None, ge=1, le=2**31 - 1)):
    """The version's main YAML and every file at its relative path, as a zip any zenflow runner runs as it is."""
    found = workflows.version(request.auth, workflow_id, version)
    name, data = bundles.export_zip(found, found.workflow.name)
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

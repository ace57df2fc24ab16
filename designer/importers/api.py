"""POST /api/v1/import: translate a Runsight or Coqui file for the editor's import dialog.

A pure transformation (nothing is saved): the answer carries the zenflow
document, its canonical YAML, its validation and the field-by-field report.
The dialog then opens the document in the editor (or POSTs it to /workflows).
Bad input answers 422 ``{detail, field, line}``.
"""
from __future__ import annotations

from typing import Any, Literal, Optional

from django.http import HttpRequest
from ninja import Router, Schema, Status

from common import offload
from designer.documents import dump_yaml, validate_document
from designer.importers import ImportFailed, import_loop


class ImportIn(Schema):
    kind: Literal["runsight", "coqui"]
    source: str
    parameters: dict[str, str] = {}  # noqa: RUF012 - a field's default (pydantic copies it), not a ClassVar


class ReportEntryOut(Schema):
    field: str
    outcome: Literal["carried", "approximated", "dropped"]
    target: Optional[str] = None
    note: str


class ImportOut(Schema):
    kind: str
    document: dict[str, Any]
    yaml: str
    valid: bool
    errors: list[dict]
    warnings: list[dict]
    report: list[ReportEntryOut]
    counts: dict[str, int]
    notes: list[str]


class ImportErrorOut(Schema):
    detail: str
    field: Optional[str] = None
    line: Optional[int] = None


def make_router() -> Router:
    router = Router(tags=["import"])

    @router.post("/import", response={200: ImportOut, 422: ImportErrorOut}, auth=None,
                 summary="Import a Runsight workflow or a Coqui loop definition")
    def import_workflow(request: HttpRequest, payload: ImportIn) -> Status[dict[str, Any]]:
        """The zenflow document, its canonical YAML, diagnostics and the field-by-field report; nothing is saved."""
        try:
            answer = offload.run(imported, payload.kind, payload.source, payload.parameters, what="the import")
        except ImportFailed as exc:
            return Status(422, {"detail": str(exc), "field": exc.path, "line": exc.line})
        return Status(200, answer)

    return router


def imported(kind: str, source: str, parameters: dict[str, str]) -> dict:
    """The answer to an import (run in a worker process: reading the source costs CPU)."""
    result = import_loop(kind, source, parameters=parameters)
    report = validate_document(result.document)
    return {
        "kind": result.kind,
        "document": result.document,
        "yaml": dump_yaml(result.document),
        "valid": report.valid,
        "errors": [d.as_dict() for d in report.errors],
        "warnings": [d.as_dict() for d in report.warnings],
        "report": [e.as_dict() for e in result.report],
        "counts": result.counts(),
        "notes": result.warnings,
    }


router = make_router()

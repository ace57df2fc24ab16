"""Document endpoints: validate and render. Views stay thin over designer.services."""
from __future__ import annotations

from typing import Any, Literal, Optional

from ninja import Router, Schema

from designer import services

router = Router(tags=["documents"])


class DiagnosticOut(Schema):
    code: str
    severity: str
    path: str
    message: str
    line: Optional[int] = None
    column: Optional[int] = None
    hint: Optional[str] = None


class DocumentIn(Schema):
    source: Optional[str] = None
    document: Optional[Any] = None


class ValidationOut(Schema):
    valid: bool
    errors: list[dict]
    warnings: list[dict]
    document: Optional[dict] = None
    yaml: Optional[str] = None
    canonical: Optional[str] = None


class RenderIn(Schema):
    document: Any
    format: Literal["yaml", "json"] = "yaml"
    source: Optional[str] = None


class RenderOut(Schema):
    text: str


@router.post("/validate", response=ValidationOut, auth=None, summary="Validate a workflow document")
def validate(request, payload: DocumentIn):
    """Every error and warning with its code, class, JSON pointer and source line; the canonical YAML when valid."""
    return services.validation_answer(services.load_input(payload.source, payload.document))


@router.post("/render", response=RenderOut, auth=None, summary="Render a document as canonical YAML or JSON")
def render(request, payload: RenderIn):
    """Any mapping, valid or not; with `source`, comments of unchanged nodes are kept."""
    return {"text": services.render(payload.document, payload.format, payload.source)}

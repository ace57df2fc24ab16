"""Document services behind the API: plain functions over the document model."""
from __future__ import annotations

from typing import Any

from designer.diagnostics import Report
from designer.documents import Loaded, dump_json, dump_yaml, load_source, validate_document
from designer.errors import BadRequest
from designer.graph import iteration_outputs


def load_input(source: str | None, document: Any) -> Loaded:
    """A `{"source"}` or `{"document"}` request body, as a checked document."""
    if source is not None and document is not None:
        raise BadRequest("send either `source` (YAML or JSON text) or `document` (an object), not both")
    if source is not None:
        return load_source(source)
    if document is None:
        raise BadRequest("send `source` (YAML or JSON text) or `document` (an object)")
    report: Report = validate_document(document)
    return Loaded(document=document if isinstance(document, dict) else None, report=report, format="json")


def validation_answer(loaded: Loaded) -> dict:
    rendered = dump_yaml(loaded.document, source=loaded.source if loaded.format == "yaml" else None) if loaded.parsed else None
    return {
        **loaded.report.as_dict(),
        "document": loaded.document if loaded.parsed else None,
        "yaml": rendered,
        "canonical": rendered if loaded.valid else None,
        "iteration_outputs": iteration_outputs(loaded.document) if loaded.parsed else {},
    }


def render(document: Any, fmt: str, source: str | None = None) -> str:
    if not isinstance(document, dict):
        raise BadRequest("`document` must be an object")
    if fmt == "json":
        return dump_json(document)
    return dump_yaml(document, source=source)

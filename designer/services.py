"""Document services behind the API: plain functions over the document model.

Reading, validating and rendering cost CPU in proportion to what a request sends, so the
API calls them through :mod:`common.offload` (a worker process with a time bound): the
public functions here do that, the underscored ones are what runs in the worker.
"""
from __future__ import annotations

import contextlib
from typing import Any

from common import offload
from designer import cel
from designer.documents import Loaded, dump_json, dump_yaml, load_document, load_source
from designer.errors import BadRequest
from designer.graph import iteration_outputs
from designer.source import MAX_DOCUMENT_BYTES, parse_text, read_object

# Keeping comments means a ruamel round trip of the source, about ten times slower than
# reading it; past this many values the rendering is fresh (comments dropped) instead.
ROUND_TRIP_MAX_VALUES = 10_000


def load_input(source: str | None, document: Any) -> Loaded:
    """A `{"source"}` or `{"document"}` request body, as a checked document (in this process)."""
    if source is not None and document is not None:
        raise BadRequest("send either `source` (YAML or JSON text) or `document` (an object), not both")
    if source is not None:
        return load_source(source)
    if document is None:
        raise BadRequest("send `source` (YAML or JSON text) or `document` (an object)")
    return load_document(document)


def validation_answer(loaded: Loaded) -> dict:
    rendered = dump_yaml(loaded.document, source=_comments_from(loaded)) if loaded.parsed else None
    return {
        **loaded.report.as_dict(),
        "document": loaded.document if loaded.parsed else None,
        "yaml": rendered,
        "canonical": rendered if loaded.valid else None,
        "iteration_outputs": iteration_outputs(loaded.document) if loaded.parsed else {},
    }


def _comments_from(loaded: Loaded) -> str | None:
    if loaded.format != "yaml" or len(loaded.positions) > ROUND_TRIP_MAX_VALUES:
        return None
    return loaded.source


# ---------------------------------------------------------------- in a worker process


def _prepare_worker() -> None:
    # Validation parses CEL in designer.cel's own processes; started here, with the worker,
    # their start-up is not charged to the first request's parse budget.
    with contextlib.suppress(Exception):  # a courtesy: should CEL not start, the first request says why
        cel.inspect("true")


offload.on_worker_start(_prepare_worker)


def check(source: str | None, document: Any) -> Loaded:
    """:func:`load_input`, in a worker."""
    return offload.run(load_input, source, document, what="checking the document")


def validate(source: str | None, document: Any) -> dict:
    """The answer of POST /validate, in a worker."""
    return offload.run(_validate, source, document, what="checking the document")


def render(document: Any, fmt: str, source: str | None = None) -> str:
    """Canonical text of any mapping, in a worker."""
    return offload.run(_render, document, fmt, source, what="rendering the document")


def stored(source: str, document: Any) -> dict:
    """The report and loop outputs of a saved version, in a worker."""
    return offload.run(_stored, source, document, what="checking the saved document")


def export(source: str, document: Any, fmt: str) -> tuple[Loaded, str | None]:
    """The saved version checked, and its canonical text when it is valid, in a worker."""
    return offload.run(_export, source, document, fmt, what="exporting the document")


def _validate(source: str | None, document: Any) -> dict:
    return validation_answer(load_input(source, document))


def _render(document: Any, fmt: str, source: str | None) -> str:
    if not isinstance(document, dict):
        raise BadRequest("`document` must be an object")
    parsed = read_object(document)
    if parsed.diagnostics:
        problem = parsed.diagnostics[0]
        raise BadRequest(f"`document`: {problem.message}", status=413 if problem.code == "too_large" else 400)
    if fmt == "json":
        return dump_json(document)
    return dump_yaml(document, source=_comments_source(source))


def _comments_source(source: str | None) -> str | None:
    """``source`` when its comments can be kept at a bounded cost, else None."""
    if source is None or "#" not in source or len(source) > MAX_DOCUMENT_BYTES:
        return None
    return source if parse_text(source, max_values=ROUND_TRIP_MAX_VALUES).ok else None


def _stored(source: str, document: Any) -> dict:
    loaded = load_source(source) if source else None
    if loaded is None or not loaded.parsed:
        loaded = load_document(document)
    report = loaded.report
    return {"valid": report.valid, "runnable": report.runnable, "errors": [d.as_dict() for d in report.errors],
            "warnings": [d.as_dict() for d in report.warnings], "iteration_outputs": iteration_outputs(document)}


def _export(source: str, document: Any, fmt: str) -> tuple[Loaded, str | None]:
    loaded = load_input(source or None, None if source else document)
    if not loaded.valid:
        return loaded, None
    if fmt == "json":
        return loaded, dump_json(loaded.document)
    return loaded, dump_yaml(loaded.document, source=_comments_from(loaded))

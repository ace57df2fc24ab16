"""Importers: other loop systems' workflows translated into zenflow v1.

One module per source system; each exposes ``import_<kind>(text, *, parameters)``
returning an :class:`ImportResult` (a plain document dict plus a field-by-field
report). Bad input raises :class:`ImportFailed` with a message that names the
field and, where known, the line. No Django needed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from designer.importers.common import ImportFailed
from designer.importers.coqui import import_coqui
from designer.importers.report import ImportResult, ReportEntry, format_table
from designer.importers.runsight import import_runsight
from designer.source import MAX_DEPTH, MAX_VALUES, value_problem

IMPORTERS: dict[str, Callable[..., ImportResult]] = {
    "runsight": import_runsight,
    "coqui": import_coqui,
}
KINDS = tuple(IMPORTERS)
MAX_SOURCE_BYTES = 1024 * 1024


def import_loop(kind: str, text: str, *, parameters: dict[str, Any] | None = None) -> ImportResult:
    """Translate ``text`` (a ``kind`` workflow) into a zenflow v1 document."""
    importer = IMPORTERS.get(kind)
    if importer is None:
        raise ImportFailed(f"unknown source system {kind!r}; choose one of {', '.join(KINDS)}")
    if not isinstance(text, str):
        raise ImportFailed("the source must be text")
    if len(text.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        raise ImportFailed("the source is larger than 1 MiB")
    if not text.strip():
        raise ImportFailed("the source is empty")
    result = importer(text, parameters=parameters)
    # Text the source carried through escapes (a NUL, a lone surrogate) could not be saved.
    problem = value_problem(result.document, max_depth=MAX_DEPTH, max_values=MAX_VALUES)
    if problem is not None:
        raise ImportFailed(f"the imported document {problem.message}", path=problem.path or "/")
    return result


__all__ = ["IMPORTERS", "KINDS", "ImportFailed", "ImportResult", "ReportEntry", "format_table", "import_loop"]

"""Importers: other loop systems' workflows translated into zenflow v1.

One module per source system; each exposes ``import_<kind>(text, *, parameters)``
returning an :class:`ImportResult` (a plain document dict plus a field-by-field
report). Bad input raises :class:`ImportFailed` with a message that names the
field and, where known, the line. No Django needed.
"""
from __future__ import annotations

from typing import Any, Callable

from .common import ImportFailed
from .coqui import import_coqui
from .report import ImportResult, ReportEntry, format_table
from .runsight import import_runsight

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
    return importer(text, parameters=parameters)


__all__ = ["IMPORTERS", "KINDS", "ImportFailed", "ImportResult", "ReportEntry", "format_table", "import_loop"]

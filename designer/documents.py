"""The document model's front door: load, validate, write.

Everything else (CLI, API, runtime, importers) goes through these functions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from designer.diagnostics import Diagnostic, Report
from designer.graph import find_cycles, topo_order
from designer.source import MAX_DOCUMENT_BYTES, Positions, parse_text
from designer.validation import locate, validate_document
from designer.writer import canonical, dump_json, dump_yaml

__all__ = [
    "Loaded",
    "load_source",
    "validate_document",
    "check_source",
    "dump_yaml",
    "dump_json",
    "canonical",
    "topo_order",
    "find_cycles",
    "parse_duration",
    "MAX_DOCUMENT_BYTES",
]


@dataclass
class Loaded:
    """A document read from text and checked."""

    document: Any
    report: Report
    source: str | None = None
    positions: Positions = field(default_factory=dict)
    format: str = "yaml"

    @property
    def valid(self) -> bool:
        return self.report.valid

    @property
    def parsed(self) -> bool:
        """True when the text gave a mapping (which may still be invalid)."""
        return isinstance(self.document, dict)


def load_source(text: str | bytes, filename: str | None = None) -> Loaded:
    """Parse and validate workflow text (YAML or JSON). Never raises."""
    parsed = parse_text(text)
    source = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    report = Report()
    if parsed.diagnostics:
        report.extend(parsed.diagnostics)
        document = parsed.document if isinstance(parsed.document, dict) else None
        return Loaded(document=document, report=report, source=source, positions=parsed.positions, format=parsed.format)
    report = validate_document(parsed.document, parsed.positions)
    return Loaded(document=parsed.document, report=report, source=source, positions=parsed.positions, format=parsed.format)


def check_source(text: str | bytes) -> Report:
    return load_source(text).report


_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")


def parse_duration(value: str) -> float:
    """Seconds in a v1 duration (`1h30m`, `45s`); ValueError when malformed."""
    match = _DURATION.match(value or "")
    if not match or len(value) < 2:
        raise ValueError(f"{value!r} is not a duration such as 30s, 10m or 1h30m")
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return float(hours * 3600 + minutes * 60 + seconds)


def diagnostics_as_dicts(diagnostics: list[Diagnostic]) -> list[dict]:
    return [d.as_dict() for d in diagnostics]


_ = locate  # re-exported for callers that validate a dict with known positions

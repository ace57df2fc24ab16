"""The document model's front door: load, validate, write.

Everything else (CLI, API, runtime, importers) goes through these functions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from designer.diagnostics import Diagnostic, Report
from designer.graph import find_cycles, topo_order
from designer.source import MAX_DOCUMENT_BYTES, ParsedText, Positions, parse_text, read_object
from designer.validation import locate, validate_document
from designer.writer import canonical, dump_json, dump_yaml

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_EXPRESSION_CHARACTERS",
    "MAX_STEPS_IN_ALL",
    "Loaded",
    "canonical",
    "dump_json",
    "dump_yaml",
    "find_cycles",
    "load_document",
    "load_source",
    "parse_duration",
    "topo_order",
    "validate_document",
]

# Validation costs per step and per character of CEL; these keep one document's check well
# under a second. 100 top-level steps is the format's own cap; loops may hold more between them.
MAX_STEPS_IN_ALL = 1_000
MAX_EXPRESSION_CHARACTERS = 20_000


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
    source = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return _checked(parse_text(text), source)


def load_document(document: Any) -> Loaded:
    """Validate a document given as data, held to the caps text is held to. Never raises."""
    return _checked(read_object(document), None)


def _checked(parsed: ParsedText, source: str | None) -> Loaded:
    def loaded(document: Any, report: Report) -> Loaded:
        return Loaded(document=document, report=report, source=source, positions=parsed.positions, format=parsed.format)

    if parsed.diagnostics:
        return loaded(parsed.document if isinstance(parsed.document, dict) else None, Report(list(parsed.diagnostics)))
    over = over_limits(parsed.document)
    if over:
        # Refused like text that does not parse: it is not validated, saved or rendered.
        locate(over, parsed.positions)
        return loaded(None, Report(over))
    document = parsed.document if isinstance(parsed.document, dict) else None
    return loaded(document, validate_document(parsed.document, parsed.positions))


def over_limits(document: Any) -> list[Diagnostic]:
    """The caps on steps (every scope) and on CEL (every expression together), before validating."""
    if not isinstance(document, dict):
        return []
    steps = 0
    characters = 0
    scopes = [("/steps", document.get("steps"))]
    while scopes:
        where, scope = scopes.pop()
        if not isinstance(scope, list):
            continue
        steps += len(scope)
        if steps > MAX_STEPS_IN_ALL:
            return [Diagnostic(code="too_many_steps", path="/steps",
                               message=f"a workflow has at most {MAX_STEPS_IN_ALL:,} steps in all, counting those inside loops; "
                                       f"this one has more than that (the limit is passed in `{where}`)",
                               hint="move a group of steps into an included sub-workflow")]
        for index, step in enumerate(scope):
            if not isinstance(step, dict):
                continue
            loop: dict = step["loop"] if isinstance(step.get("loop"), dict) else {}
            for path, expression in ((f"{where}/{index}/condition", step.get("condition")),
                                     (f"{where}/{index}/loop/until", loop.get("until")),
                                     (f"{where}/{index}/loop/forEach", loop.get("forEach"))):
                if isinstance(expression, str):
                    characters += len(expression)
                    if characters > MAX_EXPRESSION_CHARACTERS:
                        return [Diagnostic(code="expressions_too_long", path=path,
                                           message=f"the CEL expressions of a workflow come to at most {MAX_EXPRESSION_CHARACTERS:,} "
                                                   f"characters together; this one brings them to {characters:,}",
                                           hint="shorten the expressions, or move steps into an included sub-workflow")]
            if loop:
                scopes.append((f"{where}/{index}/loop/steps", loop.get("steps")))
    return []


_DURATION = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$")


def parse_duration(value: str) -> float:
    """Seconds in a v1 duration (`1h30m`, `45s`); ValueError when malformed."""
    match = _DURATION.match(value or "")
    if not match or len(value) < 2:
        raise ValueError(f"{value!r} is not a duration such as 30s, 10m or 1h30m")
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return float(hours * 3600 + minutes * 60 + seconds)


_ = locate  # re-exported for callers that validate a dict with known positions

"""Diagnostics: one problem found in a workflow document.

``code`` is the precise tag (``missing_dep``, ``foreach_with_until`` ...);
``cls`` is the upstream class a conformance case may name instead
(``validation``, ``loop_validation``, or the code itself for precise tags).
``path`` is a JSON pointer into the document; ``line``/``column`` (1-based)
are filled in when the document came from text.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]


@dataclass
class Diagnostic:
    code: str
    message: str
    path: str = ""
    cls: str = "validation"
    severity: Severity = "error"
    hint: str | None = None
    line: int | None = None
    column: int | None = None
    # The format accepts it (so it is no error and export still works), but no runner can run it.
    blocks_run: bool = False

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "class": self.cls,
            "severity": self.severity,
            "path": self.path,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }
        if self.hint:
            out["hint"] = self.hint
        if self.blocks_run:
            out["blocks_run"] = True
        return out


@dataclass
class Report:
    """Every problem found in a document, errors and warnings apart."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def runnable(self) -> bool:
        """Valid, and nothing in it would fail a run before it starts working (unparsable CEL)."""
        return self.valid and not any(d.blocks_run for d in self.diagnostics)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diagnostics)

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "runnable": self.runnable,
            "errors": [d.as_dict() for d in self.errors],
            "warnings": [d.as_dict() for d in self.warnings],
        }


def pointer(*parts: Any) -> str:
    """JSON pointer from path parts: pointer("steps", 2, "loop") -> /steps/2/loop."""
    out = []
    for part in parts:
        text = str(part).replace("~", "~0").replace("/", "~1")
        out.append(text)
    return "/" + "/".join(out) if out else ""

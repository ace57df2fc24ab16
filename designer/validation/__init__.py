"""Validate a workflow document: structure, then rules, then expressions."""
from __future__ import annotations

from typing import Any

from designer.diagnostics import Diagnostic, Report
from designer.source import Positions
from designer.validation.expressions import expression_diagnostics
from designer.validation.semantic import semantic_diagnostics
from designer.validation.structural import structural_diagnostics
from designer.validation.text import text_diagnostics


def validate_document(document: Any, positions: Positions | None = None) -> Report:
    report = Report()
    report.extend(structural_diagnostics(document))
    report.extend(semantic_diagnostics(document))
    report.extend(expression_diagnostics(document))
    report.extend(text_diagnostics(document))
    if positions:
        locate(report.diagnostics, positions)
    return report


def locate(diagnostics: list[Diagnostic], positions: Positions) -> None:
    """Give each diagnostic the line and column of the nearest node that has one."""
    for diagnostic in diagnostics:
        if diagnostic.line is not None:
            continue
        path = diagnostic.path
        while True:
            if path in positions:
                diagnostic.line, diagnostic.column = positions[path]
                break
            if not path:
                break
            path = path.rsplit("/", 1)[0]

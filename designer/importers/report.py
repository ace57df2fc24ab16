"""The field-by-field import report.

Every field an importer reads ends up in one :class:`ReportEntry`: carried
(the document says the same thing), approximated (the document says something
close; the note says how it differs) or dropped (nothing in the document; the
note says why). ``field`` is a JSON-pointer-like path in the source file,
``target`` a JSON pointer into the generated zenflow document.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Outcome = Literal["carried", "approximated", "dropped"]
OUTCOMES: tuple[str, ...] = ("carried", "approximated", "dropped")


@dataclass
class ReportEntry:
    field: str
    outcome: Outcome
    target: str | None
    note: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ImportResult:
    kind: str
    document: dict[str, Any]
    report: list[ReportEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def entries(self, outcome: str | None = None, field_prefix: str = "") -> list[ReportEntry]:
        return [
            e for e in self.report
            if (outcome is None or e.outcome == outcome) and e.field.startswith(field_prefix)
        ]

    def entry(self, field_path: str) -> ReportEntry:
        """The one entry for ``field_path``; KeyError when there is none."""
        for e in self.report:
            if e.field == field_path:
                return e
        raise KeyError(field_path)

    def counts(self) -> dict[str, int]:
        out = {name: 0 for name in OUTCOMES}
        for e in self.report:
            out[e.outcome] += 1
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "document": self.document,
            "report": [e.as_dict() for e in self.report],
            "counts": self.counts(),
            "warnings": list(self.warnings),
        }


class Reporter:
    """Collects entries while an importer works.

    Targets may name a step before its final position is known: ``@step-id``
    followed by a pointer tail (``@refine/loop/maxIterations``). :meth:`finish`
    resolves them against the finished document.
    """

    def __init__(self) -> None:
        self.entries: list[ReportEntry] = []
        self.warnings: list[str] = []

    def carried(self, field_path: str, target: str | None, note: str = "") -> None:
        self.entries.append(ReportEntry(field_path, "carried", target, note))

    def approximated(self, field_path: str, target: str | None, note: str) -> None:
        self.entries.append(ReportEntry(field_path, "approximated", target, note))

    def dropped(self, field_path: str, note: str) -> None:
        self.entries.append(ReportEntry(field_path, "dropped", None, note))

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def finish(self, kind: str, document: dict[str, Any]) -> ImportResult:
        pointers = step_pointers(document)
        for entry in self.entries:
            if entry.target and entry.target.startswith("@"):
                head, _, tail = entry.target[1:].partition("/")
                base = pointers.get(head)
                entry.target = (base + ("/" + tail if tail else "")) if base else None
        return ImportResult(kind=kind, document=document, report=self.entries, warnings=self.warnings)


def step_pointers(document: dict[str, Any]) -> dict[str, str]:
    """Step id -> JSON pointer, for top-level and loop-inner steps."""
    out: dict[str, str] = {}
    for i, step in enumerate(document.get("steps") or []):
        out[step["id"]] = f"/steps/{i}"
        for j, inner in enumerate((step.get("loop") or {}).get("steps") or []):
            out.setdefault(inner["id"], f"/steps/{i}/loop/steps/{j}")
    return out


def format_table(entries: list[ReportEntry], width: int = 100) -> str:
    """A plain-text table for terminals: outcome, source field, target, note."""
    rows = [("OUTCOME", "FIELD", "TARGET", "NOTE")]
    rows += [(e.outcome, e.field, e.target or "-", e.note) for e in entries]
    w0 = max(len(r[0]) for r in rows)
    w1 = min(max(len(r[1]) for r in rows), 42)
    w2 = min(max(len(r[2]) for r in rows), 36)
    lines = []
    for outcome, fld, target, note in rows:
        lines.append(f"{outcome:<{w0}}  {fld:<{w1}}  {target:<{w2}}  {note}".rstrip())
    return "\n".join(lines)

"""The template gallery: ready-made loop patterns, each a zenflow v1 document
with a simulated-run script, so "open template, press run" shows a loop
working in seconds.

The files live in ``gallery/``: ``<slug>.yaml`` (the document, comments kept)
and ``<slug>.script.yaml`` (replies for the simulated provider). This module
lists them with a title and a description; it needs no Django.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

GALLERY = Path(__file__).resolve().parent / "gallery"


@dataclass(frozen=True)
class Template:
    slug: str
    title: str
    description: str
    pattern: str  # the loop mechanism it shows
    origin: str  # the system whose users know the pattern
    document_yaml: str
    script_yaml: str

    def summary(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k not in ("document_yaml", "script_yaml")}

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# slug, title, description, pattern, origin
_CATALOGUE: tuple[tuple[str, str, str, str, str], ...] = (
    ("harness", "Harness: plan, code, review",
     "A planner, a coder and a reviewer repeat until the reviewer approves.",
     "multi-step repeat-until; CEL until over the review, approval words minus rejection words", "Coqui"),
    ("research", "Research and synthesis",
     "Investigate, write up and evaluate until the evaluator approves; then a summary of every iteration.",
     "multi-step repeat-until; cumulative output feeding a final step", "Coqui"),
    ("goal-driven", "Goal-driven",
     "Plan and implement until a goal judge decides the goal is met.",
     "multi-step repeat-until; untilAgent judge with the done contract", "Coqui"),
    ("writer-critic", "Writer and critic",
     "A writer drafts, a critic scores it; rounds repeat until the critic passes the draft, then an editor publishes.",
     "multi-step repeat-until; CEL until over a structured result", "Runsight"),
    ("react-tool-loop", "ReAct tool loop",
     "One agent alternates thought and action until it writes FINAL ANSWER.",
     "single-step repeat-until; CEL until over the bare content", "Noetic"),
    ("fanout-deploy", "Fan-out deploy with verify",
     "Discover services, deploy and verify each in parallel, then summarise.",
     "forEach over a structured result; inner deploy -> verify DAG", "zenflow"),
    ("debate", "Debate until a judge agrees",
     "Pro and con argue in rounds until a judge calls it; a summariser gives the verdict.",
     "multi-step repeat-until; untilAgent judge; cumulative output", "zenflow"),
)


@lru_cache(maxsize=1)
def _load() -> tuple[Template, ...]:
    out = []
    for slug, title, description, pattern, origin in _CATALOGUE:
        out.append(Template(
            slug=slug, title=title, description=description, pattern=pattern, origin=origin,
            document_yaml=(GALLERY / f"{slug}.yaml").read_text(encoding="utf-8"),
            script_yaml=(GALLERY / f"{slug}.script.yaml").read_text(encoding="utf-8"),
        ))
    return tuple(out)


def list_templates() -> list[Template]:
    """Every template, in gallery order."""
    return list(_load())


def get_template(slug: str) -> Template:
    """The template named ``slug``; KeyError when there is none."""
    for template in _load():
        if template.slug == slug:
            return template
    raise KeyError(slug)


__all__ = ["GALLERY", "Template", "get_template", "list_templates"]

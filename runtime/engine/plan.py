"""The plan a run announces before its first step (upstream's ``plan_ready``): each scope's steps in topological
order (ties in document order, as the scheduler starts them) and its ``dependsOn`` edges.

A loop with inner steps carries its own plan under ``scopes``, keyed by the loop step's id, and so on down; an
include's steps are only known once it is loaded, so an include has none here.
"""
from __future__ import annotations

from typing import Any

from designer.graph import topo_order
from runtime.engine.shapes import WorkflowDoc


def plan_of(document: WorkflowDoc) -> dict[str, Any]:
    """``data.workflow`` of ``plan_ready`` for ``document``: ``{name, steps, edges, scopes}``."""
    return {"name": document.get("name") or "", **_scope(document.get("steps") or [])}


def _scope(steps: list) -> dict[str, Any]:
    order = topo_order(steps)
    by_id = {s["id"]: s for s in steps if isinstance(s, dict) and isinstance(s.get("id"), str)}
    edges = [{"source": dep, "target": sid}
             for sid in order for dep in (by_id[sid].get("dependsOn") or []) if dep in by_id]
    scopes: dict[str, Any] = {}
    for sid in order:
        inner = (by_id[sid].get("loop") or {}).get("steps")
        if isinstance(inner, list) and inner:
            scopes[sid] = _scope(inner)
    return {"steps": order, "edges": edges, **({"scopes": scopes} if scopes else {})}

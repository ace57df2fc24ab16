"""One outcome for a DAG of steps that ran: an iteration's inner steps, an include's.

A leaf, so that loops and includes can summarise what the runner gave them
without importing the runner.
"""
from __future__ import annotations

from collections.abc import Mapping

from designer.graph import terminal_ids
from runtime.engine.state import CANCELLED, COMPLETED, FAILED, Outcome


def summarize(steps: list[dict], outcomes: Mapping[str, Outcome]) -> Outcome:
    """One outcome for a DAG that ran (an iteration, an include)."""
    for s in steps:
        out = outcomes.get(s["id"])
        if out is not None and out.status == FAILED and not out.blocked:
            return Outcome(FAILED, error=f"{s['id']}: {out.error}", content=out.content)
    for s in steps:
        out = outcomes.get(s["id"])
        if out is None or out.status == CANCELLED:
            return Outcome(CANCELLED, error=f"{s['id']} was cancelled")
    terminals = terminal_ids(steps)
    content = "\n\n".join(outcomes[t].content for t in terminals if outcomes[t].content)
    result = outcomes[terminals[0]].result if len(terminals) == 1 else {t: outcomes[t].result for t in terminals}
    return Outcome(COMPLETED, content, result)

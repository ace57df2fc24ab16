"""One outcome for a DAG of steps that ran: an iteration's inner steps, an include's.

A leaf, so that loops and includes can summarise what the runner gave them
without importing the runner.

The output of a DAG that completed is, as upstream's runner gives it, the
content and result of its *last completed step in document order* (a step
skipped by its condition is passed over): a loop iteration's output, and an
include step's content. A DAG with a failed step fails with that step's error
(its content kept, so the failure can be read); one with a cancelled step is
cancelled.
"""
from __future__ import annotations

from collections.abc import Mapping

from runtime.engine.state import CANCELLED, COMPLETED, FAILED, Outcome


def last_completed(steps: list[dict], outcomes: Mapping[str, Outcome]) -> Outcome | None:
    """The outcome of the last step, in document order, that completed (None: none did)."""
    for s in reversed(steps):
        out = outcomes.get(s["id"])
        if out is not None and out.status == COMPLETED:
            return out
    return None


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
    last = last_completed(steps, outcomes)
    return Outcome(COMPLETED, last.content, last.result) if last is not None else Outcome(COMPLETED)

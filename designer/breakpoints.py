"""Breakpoints: where a run of a workflow holds for someone to look (the loop debugger, runtime.engine.debugger).

They live beside the workflow in the app (``Workflow.breakpoints``), never in its document: an export or a
YAML view never shows them. A run is given the workflow's (unless it turns them off) and those its request adds.

One breakpoint is ``{id, kind, ...}``:

* ``step``: before step ``step`` runs, any execution of it, or only in round ``round`` / item ``item`` of the loop
  around it;
* ``round``: before round ``round`` of the repeat-until ``step`` (or item ``item`` of the forEach ``step``);
  neither: before every round;
* ``judge``: after the judge of the repeat-until ``step`` answered, when it said ``done`` (true or false; absent:
  either);
* ``condition``: before any step, when the CEL ``condition`` over the run's state becomes true;
* ``tool``: before a call of the tool ``tool``.

:func:`clean` checks a list and answers it as stored; every refusal names its field (``breakpoints[2].round``).
:func:`check_for_run` is the same check for breakpoints a run brings (the run dialog's, checked as they are added
and again by ``POST /runs``): nothing is stored.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from accounts.workspaces import Need
from designer.cel import CelError, inspect
from designer.errors import BadRequest
from designer.workflows import reachable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

KINDS = ("step", "round", "judge", "condition", "tool")
MAX_BREAKPOINTS = 100
MAX_CONDITION = 2000
_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_FIELDS = {"id", "kind", "step", "round", "item", "done", "condition", "tool", "note"}


def _steps(steps: Any) -> Iterator[dict]:
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, dict):
            yield step
            loop = step.get("loop")
            if isinstance(loop, dict):
                yield from _steps(loop.get("steps"))


def _index(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadRequest(f"{where}: must be a whole number from 0 (zero-based)", status=422)
    return value


def clean(raw: Any, document: dict | None, field: str = "breakpoints") -> list[dict]:
    """``raw`` checked against ``document`` (its steps, when given): the breakpoints as stored, each with an id."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise BadRequest(f"{field}: must be a list of breakpoints", status=422)
    if len(raw) > MAX_BREAKPOINTS:
        raise BadRequest(f"{field}: at most {MAX_BREAKPOINTS} breakpoints", status=422)
    steps = {s.get("id"): s for s in _steps((document or {}).get("steps"))} if document is not None else None
    out: list[dict] = []
    seen: set[str] = set()
    for n, entry in enumerate(raw):
        where = f"{field}[{n}]"
        if not isinstance(entry, dict):
            raise BadRequest(f"{where}: must be an object with a kind", status=422)
        unknown = sorted(set(entry) - _FIELDS)
        if unknown:
            raise BadRequest(f"{where}.{unknown[0]}: not a breakpoint field (known: {', '.join(sorted(_FIELDS))})",
                             status=422)
        kind = entry.get("kind")
        if kind not in KINDS:
            raise BadRequest(f"{where}.kind: must be one of {', '.join(KINDS)}", status=422)
        bp_id = entry.get("id") or f"bp{n + 1}"
        if not isinstance(bp_id, str) or not _ID.match(bp_id) or bp_id == "step":
            raise BadRequest(f"{where}.id: 1-64 letters, digits, '_', '-' or '.' (and not 'step')", status=422)
        if bp_id in seen:
            raise BadRequest(f"{where}.id: {bp_id!r} is used by an earlier breakpoint", status=422)
        seen.add(bp_id)
        bp: dict[str, Any] = {"id": bp_id, "kind": kind}
        round_, item = _index(entry.get("round"), f"{where}.round"), _index(entry.get("item"), f"{where}.item")
        if round_ is not None and item is not None:
            raise BadRequest(f"{where}.item: give round or item, not both", status=422)
        if kind in ("step", "round", "judge"):
            step_id = entry.get("step")
            if not isinstance(step_id, str) or not step_id:
                raise BadRequest(f"{where}.step: the id of the step it is set on", status=422)
            step = steps.get(step_id) if steps is not None else None
            if steps is not None and step is None:
                raise BadRequest(f"{where}.step: the workflow has no step {step_id!r}", status=422)
            loop = step.get("loop") if step is not None else None
            if kind in ("round", "judge") and steps is not None and not isinstance(loop, dict):
                raise BadRequest(f"{where}.step: {step_id!r} is not a loop step", status=422)
            if kind == "judge" and isinstance(loop, dict) and not loop.get("untilAgent"):
                raise BadRequest(f"{where}.step: {step_id!r} has no untilAgent judge", status=422)
            if kind == "round" and isinstance(loop, dict):
                if "forEach" in loop and round_ is not None:
                    raise BadRequest(f"{where}.round: {step_id!r} is a forEach: give item", status=422)
                if "forEach" not in loop and item is not None:
                    raise BadRequest(f"{where}.item: {step_id!r} is a repeat-until: give round", status=422)
            bp["step"] = step_id
        if kind in ("step", "round"):
            if round_ is not None:
                bp["round"] = round_
            if item is not None:
                bp["item"] = item
        if kind == "judge":
            done = entry.get("done")
            if done is not None and not isinstance(done, bool):
                raise BadRequest(f"{where}.done: true, false, or absent for either verdict", status=422)
            if done is not None:
                bp["done"] = done
        if kind == "condition":
            condition = entry.get("condition")
            if not isinstance(condition, str) or not condition.strip() or len(condition) > MAX_CONDITION:
                raise BadRequest(f"{where}.condition: a CEL expression (at most {MAX_CONDITION} characters)", status=422)
            try:
                inspect(condition)
            except CelError as exc:
                raise BadRequest(f"{where}.condition: {exc}", status=422) from None
            bp["condition"] = condition
        if kind == "tool":
            tool = entry.get("tool")
            if not isinstance(tool, str) or not tool.strip() or len(tool) > 200:
                raise BadRequest(f"{where}.tool: the tool's name", status=422)
            bp["tool"] = tool
        note = entry.get("note")
        if note is not None:
            if not isinstance(note, str) or len(note) > 500:
                raise BadRequest(f"{where}.note: text of at most 500 characters", status=422)
            bp["note"] = note
        out.append(bp)
    return out


def of_workflow(user: User, workflow_id: int) -> list[dict]:
    """The workflow's breakpoints (anyone who may read it)."""
    return list(reachable(user, workflow_id).breakpoints or [])


def set_for_workflow(user: User, workflow_id: int, raw: Any) -> list[dict]:
    """Replace the workflow's breakpoints (an editor or above), checked against its latest version's steps. Saving
    them is no new version: the document is unchanged."""
    workflow = reachable(user, workflow_id, Need.EDIT)
    cleaned = clean(raw, workflow.latest().document)
    type(workflow).objects.filter(pk=workflow.pk).update(breakpoints=cleaned)
    return cleaned


def check_for_run(user: User, workflow_id: int, raw: Any, document: dict | None = None) -> list[dict]:
    """Breakpoints for one run of the workflow, checked as ``POST /runs`` will (anyone who may read it): against
    ``document`` when given (the editor's draft, which the run dialog saves before it starts the run), else against
    the latest version's steps. Nothing is stored."""
    workflow = reachable(user, workflow_id)
    return clean(raw, document if document is not None else workflow.latest().document)

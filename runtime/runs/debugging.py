"""A run held at a breakpoint, as the API offers it: what it holds before, and the commands for it.

The engine holds (runtime.engine.debugger); the run's worker stores the hold in ``Run.debug_hold`` (the
``breakpoint_hit``'s data, with the inputs as edited since) and hands the engine the commands written here to
``Run.debug_requests`` (``execution.holds``, read by the worker's watcher every poll, wherever the run executes). Every command
is a ``debug_action`` event naming its actor. An edit of a context file names one of the files the hold lists for
the pending step; any other path is refused in the folder's own words when it would leave the folder.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction

from accounts.workspaces import Need
from common.types import RunId
from designer.errors import BadRequest
from designer.folders import PathRefused, joined
from runtime.models import Run
from runtime.runs.access import reachable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ACTIONS = ("edit", "continue", "step", "skip")
EDITABLE = ("previous_output", "item", "instructions", "context_file")
MAX_TEXT = 200_000  # characters of an edited text or a typed output
MAX_WAITING = 50    # commands written and not yet taken by the run's worker


def state(run: Run) -> dict:
    return {"run_id": str(run.pk), "status": run.status, "holding": run.debug_hold is not None,
            "hold": run.debug_hold, "breakpoints": list(run.breakpoints or [])}


def hold_of(user: User, run_id: RunId) -> dict:
    """Where the run holds (null: it does not) and its breakpoints; anyone who may read the run."""
    return state(reachable(user, run_id))


def _checked_file(hold: dict, path: Any) -> str:
    """The context file an edit names: one the hold lists for the pending step (400 naming the path otherwise)."""
    if not isinstance(path, str) or not path:
        raise BadRequest("path: the context file to edit, as the pending step names it", status=422)
    named = [str(f.get("path")) for f in (hold.get("inputs") or {}).get("context_files") or []]
    if path in named:
        return path
    try:
        joined("", path)  # the rule every read of the run's folder keeps, in its words
    except PathRefused as exc:
        raise BadRequest(f"path: {exc}") from None
    raise BadRequest(f"path: {path} is not a context file of the pending step "
                     f"(its context files: {', '.join(named) or 'none'})")


def _checked(hold: dict, action: str, field: str | None, value: Any, output: Any, path: Any) -> dict:
    if action not in ACTIONS:
        raise BadRequest(f"action: one of {', '.join(ACTIONS)}", status=422)
    command: dict[str, Any] = {"action": action, "key": hold.get("key")}
    if action == "edit":
        if field not in EDITABLE:
            raise BadRequest(f"field: one of {', '.join(EDITABLE)}", status=422)
        if field not in (hold.get("editable") or []):
            where = (hold.get("where") or {}).get("kind", "here")
            raise BadRequest(f"field: {field} cannot be edited at this hold ({where}; editable: "
                             f"{', '.join(hold.get('editable') or []) or 'nothing'})", status=422)
        if field != "item" and not isinstance(value, str):
            raise BadRequest(f"value: {field} is text", status=422)
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise BadRequest(f"value: at most {MAX_TEXT} characters", status=422)
        command.update(field=field, value=value)
        if field == "context_file":
            command["path"] = _checked_file(hold, path)
    if action == "skip":
        if not hold.get("skippable"):
            raise BadRequest("action: nothing to skip at this hold (a judge's verdict)", status=422)
        if not isinstance(output, str):
            raise BadRequest("output: the text the skipped step ends with", status=422)
        if len(output) > MAX_TEXT:
            raise BadRequest(f"output: at most {MAX_TEXT} characters", status=422)
        command["output"] = output
    return command


def command(user: User, run_id: RunId, *, action: str, field: str | None = None, value: Any = None,
            path: str | None = None, output: Any = None, result: Any = None, key: str | None = None) -> dict:
    """Write a command for the run's hold (a runner or above): it reaches the engine at the watcher's next poll."""
    run = reachable(user, run_id, Need.RUN)
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        hold = locked.debug_hold
        if hold is None:
            raise BadRequest(f"run is {locked.status} and not held at a breakpoint", status=409)
        if key is not None and key != hold.get("key"):
            raise BadRequest("key: the run no longer holds there (it went on, or holds elsewhere)", status=409)
        checked = _checked(hold, action, field, value, output, path)
        if action == "skip" and result is not None:
            checked["result"] = result
        waiting = list(locked.debug_requests or [])
        if len(waiting) >= MAX_WAITING:
            raise BadRequest("the run's worker has not taken the earlier commands yet", status=409)
        checked["actor"] = user.get_username()
        locked.debug_requests = [*waiting, checked]
        locked.save(update_fields=["debug_requests"])
    return state(reachable(user, run_id))


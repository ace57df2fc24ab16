"""Pinned outputs (issue #33): "use this instead of asking the model", taken from a finished run.

A pin belongs to a workflow (``designer.models.StepPin``, never in its document or export) and names one agent
execution by its step path (``draft``, ``dev.2.draft``, ``dev.2.untilAgent``). Pinning a round (``dev.2``) or a
loop pins every agent execution under it that completed. A run created with pins on copies the workflow's pins
into ``Run.pins`` as it is stored, so the run (and a resume of it) answers those executions the same way whatever
happens to the pins later; the engine takes them in ``RunOptions.pins``.

Who may do what: anyone who may read the workflow lists its pins; pinning and clearing change what its runs do,
so they need the role that edits it.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from accounts.workspaces import Need
from designer.errors import BadRequest
from designer.models import StepPin, Workflow
from designer.workflows import reachable as reachable_workflow
from runtime.models import Run, RunEvent
from runtime.runs.access import reachable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_STEP_PATH = 300
MAX_PINNED_CONTENT = 1_000_000  # characters: a pin is a model's reply, not a file
NAMED_IN_ERRORS = 20  # pinnable paths named when a step matches none


def executions(run: Run) -> dict[str, dict[str, Any]]:
    """The run's agent executions that completed, by step path: ``{content, result?}`` as the run used them."""
    texts = (RunEvent.objects.filter(run=run, superseded=False, type__in=("agent_turn", "step_end", "judge_verdict"))
             .order_by("seq").values_list("event_json", flat=True))
    agents: list[str] = []
    outputs: dict[str, dict[str, Any]] = {}
    for event in (json.loads(t) for t in texts):
        kind, step, data = event.get("type"), event.get("stepId") or "", event.get("data") or {}
        if kind == "agent_turn":
            if step and step not in agents:  # the coordinator's turns have no step: nothing to pin
                agents.append(step)
        elif kind == "step_end":
            if data.get("status") == "completed":
                outputs[step] = {"content": data.get("content") or "",
                                 **({"result": data["result"]} if data.get("result") is not None else {})}
            else:
                outputs.pop(step, None)  # a later attempt failed: its output is no longer the step's
        elif kind == "judge_verdict" and not data.get("failed_open"):
            outputs[f"{step}.{data.get('iteration')}.untilAgent"] = {
                "content": data.get("content") or "", **({"result": data["result"]} if data.get("result") is not None else {})}
    return {path: outputs[path] for path in agents if path in outputs}


def under(step_path: str, path: str) -> bool:
    """``step_path`` is ``path`` or runs inside it: its rounds (``dev.2``), items (``each[3]``) and their steps."""
    return step_path == path or step_path.startswith((path + ".", path + "["))


def _step(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise BadRequest("step: name the step execution or round to pin (a step path such as `draft`, `dev.2` or `dev.2.untilAgent`)")
    if len(raw) > MAX_STEP_PATH:
        raise BadRequest(f"step: a step path is at most {MAX_STEP_PATH} characters")
    return raw.strip()


def pin_from_run(user: User, run_id: str, step: Any, content: Any = None, result: Any = None,
                 has_result: bool = False) -> list[StepPin]:
    """Pin what ``step`` (an execution, or a round or loop: every execution under it) gave in a finished run.
    ``content`` (and ``result``, when ``has_result``) replace what it gave, for a single execution only."""
    run = reachable(user, run_id)
    workflow = reachable_workflow(user, run.workflow_id, Need.EDIT)
    if run.active:
        raise BadRequest(f"run {run.id} is still {run.status}: pin from a finished run", status=409)
    path = _step(step)
    found = executions(run)
    chosen = {p: out for p, out in found.items() if under(p, path)}
    if not chosen:
        known = ", ".join(list(found)[:NAMED_IN_ERRORS]) or "none"
        raise BadRequest(f"step: `{path}` names no agent execution that completed in run {run.id} (pinnable: {known})")
    if content is not None or has_result:
        if len(chosen) != 1 or path not in chosen:
            raise BadRequest("content: an edited output pins one execution only; name it exactly in `step`")
        if not isinstance(content, str):
            raise BadRequest("content: the pinned output must be text")
        if len(content) > MAX_PINNED_CONTENT:
            raise BadRequest(f"content: a pinned output is at most {MAX_PINNED_CONTENT} characters")
        chosen[path] = {"content": content, **({"result": result} if has_result else {})}
    pins = []
    for p, out in chosen.items():
        pin, _ = StepPin.objects.update_or_create(workflow=workflow, step_path=p, defaults={
            "content": out["content"], "result": out.get("result"), "has_result": "result" in out,
            "source_run": str(run.id), "source_version": run.version.number if run.version_id else 0, "created_by": user})
        pins.append(pin)
    return pins


def listed(user: User, workflow_id: int) -> list[StepPin]:
    workflow = reachable_workflow(user, workflow_id, Need.READ)
    return list(StepPin.objects.filter(workflow=workflow).select_related("created_by"))


def clear(user: User, workflow_id: int, step: str | None = None) -> int:
    """Remove the workflow's pins (only ``step`` and what lies under it, when given); how many went."""
    workflow = reachable_workflow(user, workflow_id, Need.EDIT)
    pins = StepPin.objects.filter(workflow=workflow)
    if step is not None:
        path = _step(step)
        pins = pins.filter(step_path=path) | pins.filter(step_path__startswith=path + ".") | pins.filter(step_path__startswith=path + "[")
    count, _ = pins.delete()
    return count


def for_run(workflow: Workflow) -> dict[str, dict[str, Any]]:
    """The workflow's pins as a run takes them (``Run.pins``, ``RunOptions.pins``)."""
    return {p.step_path: {"content": p.content, **({"result": p.result} if p.has_result else {})}
            for p in StepPin.objects.filter(workflow=workflow)}


def pin_dict(pin: StepPin) -> dict[str, Any]:
    return {"id": pin.pk, "workflow_id": pin.workflow_id, "step_path": pin.step_path, "content": pin.content,
            "result": pin.result, "has_result": pin.has_result, "source_run": pin.source_run,
            "source_version": pin.source_version, "created_by": pin.created_by.get_username() if pin.created_by else "",
            "created_at": pin.created_at.isoformat()}

"""Deciding gated tool calls, the API side: the decision is written here; the executing worker picks it up
(:mod:`runtime.execution.tool_decisions`).

A decision goes through the database (as pause and stop do) so that it
reaches the run wherever it executes: in the server process or a Celery
worker on another machine. The update is conditional on ``pending``, so two
watchers answering at once cannot both win.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from accounts.workspaces import Need
from common.errors import BadRequest
from runtime.models import ACTIVE_STATUSES, ToolApproval
from runtime.runs.access import reachable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_REASON = 2000


def decide(user: User, run_id: str, call_id: str, approve: bool, reason: str = "") -> dict:
    """Approve or deny a waiting call of a run the user may control."""
    run = reachable(user, run_id, Need.RUN)
    status = ToolApproval.APPROVED if approve else ToolApproval.DENIED
    with transaction.atomic():
        if run.status not in ACTIVE_STATUSES:
            raise BadRequest(f"run {run.id} has ended; its tool calls no longer wait", status=409)
        updated = ToolApproval.objects.filter(run=run, call_id=call_id, status=ToolApproval.PENDING).update(
            status=status, reason=(reason or "")[:MAX_REASON], actor=user.get_username()[:150],
            decided_at=timezone.now())
    if not updated:
        found = ToolApproval.objects.filter(run=run, call_id=call_id).first()
        if found is None:
            raise BadRequest(f"no tool call {call_id!r} waits for approval in run {run.id}", status=409)
        raise BadRequest(f"tool call {call_id!r} was already {found.status}"
                         + (f" by {found.actor}" if found.actor else ""), status=409)
    return {"status": status}

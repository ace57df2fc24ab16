"""Deciding gated tool calls: the API writes the decision, the executing worker picks it up.

A decision goes through the database (as pause and stop do) so that it
reaches the run wherever it executes: in the server process or a Celery
worker on another machine. The update is conditional on ``pending``, so two
watchers answering at once cannot both win.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.workspaces import Need
from common.errors import BadRequest
from runtime.models import ACTIVE_STATUSES, ToolApproval
from runtime.runs import reachable
from runtime.tools.approvals import Approvals, Decision

MAX_REASON = 2000


def decide(user, run_id: str, call_id: str, approve: bool, reason: str = "") -> dict:
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


def deliver(run_id, approvals: Approvals) -> int:
    """Hand decisions made since the last look to the waiting calls; how many were handed over."""
    rows = list(ToolApproval.objects.filter(run_id=run_id, delivered=False)
                .exclude(status=ToolApproval.PENDING).values_list("pk", "call_id", "status", "reason", "actor"))
    for _pk, call_id, status, reason, actor in rows:
        approvals.decide(call_id, Decision(status == ToolApproval.APPROVED, reason, actor or None))
    if rows:
        ToolApproval.objects.filter(pk__in=[r[0] for r in rows]).update(delivered=True)
    return len(rows)


def cancel_waiting(run_id) -> None:
    """The run ended: calls still waiting are cancelled, so nobody answers them later."""
    ToolApproval.objects.filter(run_id=run_id, status=ToolApproval.PENDING).update(
        status=ToolApproval.CANCELLED, decided_at=timezone.now(), delivered=True)

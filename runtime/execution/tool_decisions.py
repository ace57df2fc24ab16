"""Gated tool calls, the executing side: decisions the API wrote (:mod:`runtime.runs.tool_decisions`) handed
to the waiting calls, and calls still waiting cancelled when the run ends."""
from __future__ import annotations

from django.utils import timezone

from common.types import RunId
from runtime.models import ToolApproval
from runtime.tools.approvals import Approvals, Decision


def deliver(run_id: RunId, approvals: Approvals) -> int:
    """Hand decisions made since the last look to the waiting calls; how many were handed over."""
    rows = list(ToolApproval.objects.filter(run_id=run_id, delivered=False)
                .exclude(status=ToolApproval.PENDING).values_list("pk", "call_id", "status", "reason", "actor"))
    for _pk, call_id, status, reason, actor in rows:
        approvals.decide(call_id, Decision(status == ToolApproval.APPROVED, reason, actor or None))
    if rows:
        ToolApproval.objects.filter(pk__in=[r[0] for r in rows]).update(delivered=True)
    return len(rows)


def cancel_waiting(run_id: RunId) -> None:
    """The run ended: calls still waiting are cancelled, so nobody answers them later."""
    ToolApproval.objects.filter(run_id=run_id, status=ToolApproval.PENDING).update(
        status=ToolApproval.CANCELLED, decided_at=timezone.now(), delivered=True)

"""A run's end as the database keeps it: from the engine's result when the run ends where it executes, or from its
stored ``workflow_end`` when the process that stored that event died before it could mark the run final.

Such a run has ended; resuming it would run its end a second time (the coordinator's synthesis, a paid model call,
asked again) and its watchers would see it end twice (:func:`runtime.durability.continuation.resume_or_fail`).
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from common.types import RunId
from runtime.engine.state import RunResult
from runtime.models import FINAL_STATUSES, RunEvent, RunStatus


def final_fields(result: RunResult, now: datetime) -> dict[str, Any]:
    """The run's columns once it has ended with ``result`` (a pause it was in is the caller's to close)."""
    return {
        "status": result.status if result.status in FINAL_STATUSES else RunStatus.FAILED,
        "reason": result.reason or "",
        "finished_at": now,
        "tokens_prompt": int(result.tokens.get("prompt", 0)),
        "tokens_completion": int(result.tokens.get("completion", 0)),
        "cost_usd": float(result.cost_usd or 0.0),
        "unpriced_models": list(result.unpriced_models),
        "loops": result.loops or {},
        "summary": result.summary,
        "control_request": "",
        "debug_hold": None,
        "debug_requests": [],
    }


def stored_end(run_id: RunId) -> RunResult | None:
    """The result a run's stored, not superseded, ``workflow_end`` announced; None when its stream has no such end."""
    text = (RunEvent.objects.filter(run_id=run_id, type="workflow_end", superseded=False).order_by("-seq")
            .values_list("event_json", flat=True).first())
    if text is None:
        return None
    end = json.loads(text)
    data = end.get("data") or {}
    tokens = end.get("tokens") or {}
    return RunResult(status=str(data.get("status") or RunStatus.FAILED), reason=str(data.get("reason") or ""),
                     code=str(data.get("code") or ""),
                     tokens={k: int(tokens.get(k) or 0) for k in ("prompt", "completion", "total")},
                     cost_usd=float(data.get("cost_usd") or 0.0),
                     loops=dict(data.get("loops") or {}), unpriced_models=list(data.get("unpriced_models") or []),
                     summary=str(data.get("summary") or ""))

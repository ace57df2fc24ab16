"""Runs as the API and websockets show them."""
from __future__ import annotations

from datetime import datetime

from django.conf import settings

from runtime.engine.resume_points import notice_of, public_notice
from runtime.live.tracing import trace_url
from runtime.models import Run


def run_dict(run: Run) -> dict:
    return {
        "id": str(run.id),
        "workflow_id": run.workflow_id,
        "workflow_name": run.workflow.name if run.workflow_id else "",
        "workspace_id": run.workspace_id,
        "started_by": run.owner.get_username() if run.owner_id else "",
        "version": run.version.number if run.version_id else None,
        "status": run.status,
        "reason": run.reason,
        "provider": run.provider,
        "model": run.model,
        "model_override": run.model_override,
        "thinking": run.thinking or None,
        "permissions": run.permissions or {},
        "budgets": run.budgets or {},
        "policies": run.policies,
        "script": run.script,
        "backend": run.backend,
        "created_at": _iso(run.created_at),
        "started_at": _iso(run.started_at),
        "finished_at": _iso(run.finished_at),
        # Since when it is paused (null: it is not) and its earlier pauses' length: the clock leaves them out.
        "paused_at": _iso(run.paused_at),
        "paused_ms": run.paused_ms,
        "tokens": {"prompt": run.tokens_prompt, "completion": run.tokens_completion, "total": run.tokens_prompt + run.tokens_completion},
        "cost_usd": run.cost_usd,
        "unpriced_models": run.unpriced_models or [],
        "loops": run.loops or {},
        "last_seq": run.last_seq,
        "ask_before": run.ask_before or [],
        "workspace_seed": run.workspace_seed,  # {"upload": id} or {"from_run": id}: what its files started from
        # A fork's parent run and where it forked ({step, iteration?, kind, seq, inherited_events, edited?}); the seq it
        # (or a resumed run) went on from, and how often it resumed after losing its worker.
        "parent": str(run.parent_id) if run.parent_id else None,
        "fork_point": run.fork_point,
        "start_seq": run.start_seq,
        "resumes": run.resumes,
        # Why and where it last went on after losing its worker ({reason, attempt, of, from_seq, after}), or None.
        "resumed": public_notice(notice_of(run.start_checkpoint)),
        "coordinator": run.coordinator,
        "summary": run.summary,
        "shared_memory": run.shared_memory,
        # Its OpenTelemetry trace (when traces were on as it ran), and where to see it: its workspace's link template
        # as it started, else the server's (OTEL_TRACE_LINK_TEMPLATE).
        "trace_id": run.trace_id or None,
        "trace_url": trace_url(run.trace_id, run.trace_link_template or settings.OTEL_TRACE_LINK_TEMPLATE),
        "pins": sorted(run.pins or {}),
    }


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None

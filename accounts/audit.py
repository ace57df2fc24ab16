"""The audit log: one row per thing someone did in a workspace, written where it happened."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from accounts.models import AuditEntry

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

# Everything the log records; a test holds each to exactly one row per action.
ACTIONS = (
    "signed_in", "signed_up", "invitation_created", "invitation_used", "member_added", "role_changed", "member_removed",
    "key_stored", "key_deleted", "server_keys_granted", "server_keys_revoked", "limits_changed", "workspace_created",
    "workflow_moved", "run_started", "run_refused", "run_paused", "run_resumed", "run_stopped", "action_refused",
    "tracing_changed",
)


def record(workspace_id: int | None, actor: User | AnonymousUser | None, action: str, **detail: Any) -> None:
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    account = actor if actor is not None and actor.is_authenticated else None
    name = account.get_username() if account is not None else ""
    AuditEntry.objects.create(workspace_id=workspace_id, actor=account if name else None, actor_name=name,
                              action=action, detail=detail)


def entries(workspace_id: int, limit: int = 200, before: int | None = None) -> list[dict]:
    rows = AuditEntry.objects.filter(workspace_id=workspace_id)
    if before:
        rows = rows.filter(id__lt=before)
    return [{"id": e.id, "at": e.at, "actor": e.actor_name, "action": e.action, "detail": e.detail}
            for e in rows.order_by("-id")[:limit]]

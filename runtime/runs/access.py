"""Which runs a user may reach: every lookup is scoped to the caller's workspaces; anyone who is not a
member gets a 404, a member whose role falls short a 403 (accounts.workspaces)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404

from accounts.workspaces import Need, require
from common.types import RunId
from runtime.models import Run

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def reachable(user: User, run_id: RunId, need: Need = Need.READ) -> Run:
    """The run, when the user is a member of its workspace whose role allows ``need``."""
    try:
        run = Run.objects.select_related("workflow", "version", "workspace", "owner").get(pk=run_id)
    except (Run.DoesNotExist, ValueError, TypeError, Exception) as exc:
        if isinstance(exc, Run.DoesNotExist) or "UUID" in str(exc) or isinstance(exc, (ValueError, TypeError)):
            raise Http404(f"run {run_id} not found") from None
        raise
    require(user, run.workspace_id, need, f"run {run_id}")
    return run

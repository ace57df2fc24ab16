"""Pause, resume and stop: applied at once to a run executing in this process, else written for the run's
watcher (wherever it executes) to pick up."""
from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import timezone

from accounts import audit
from accounts.workspaces import Need, member_workspace_ids
from common.types import RunId
from designer.errors import BadRequest
from runtime.execution import dispatch
from runtime.live.announce import announce_status_sync
from runtime.models import ACTIVE_STATUSES, Run, RunStatus
from runtime.runs.access import reachable

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CONTROL_AUDIT = {"pause": "run_paused", "resume": "run_resumed", "stop": "run_stopped"}


def control(user: User, run_id: RunId, action: str) -> Run:
    run = reachable(user, run_id, Need.RUN)
    request_control(run, action, user)
    return reachable(user, run_id)


def request_control(run: Run, action: str, user: User | None = None) -> None:
    if action not in ("pause", "resume", "stop"):
        raise BadRequest(f"unknown action `{action}`")
    if run.status not in ACTIVE_STATUSES:
        raise BadRequest(f"run is {run.status}; only queued, running or paused runs can be {action}d", status=409)
    actor = user.get_username() if user is not None else None
    if user is not None:
        audit.record(run.workspace_id, user, CONTROL_AUDIT[action], run=str(run.pk))
    if action == "stop" and Run.objects.filter(pk=run.pk, status=RunStatus.QUEUED).update(
        status=RunStatus.CANCELLED, reason=f"stopped before it started{f' by {actor}' if actor else ''}", finished_at=timezone.now()
    ):
        # Never started: a worker that picks it up later will not claim it.
        announce_status_sync(run.pk)
        return
    if dispatch.control_local(str(run.id), action, actor):
        return
    # Not executing in this process (a Celery worker, or not claimed yet): the run's watcher picks it up.
    Run.objects.filter(pk=run.pk).update(control_request=action, control_by=actor or "")


def control_all(user: User, action: str) -> int:
    """The runs the user started, all at once (a team's other runs are theirs to stop), in the workspaces where
    their role still lets them control runs: one removed from a team, or made a viewer, no longer can."""
    count = 0
    for run in Run.objects.filter(owner=user, status__in=ACTIVE_STATUSES,
                                  workspace_id__in=member_workspace_ids(user, Need.RUN)):
        try:
            request_control(run, action, user)
            count += 1
        except BadRequest:
            pass
    return count


def active_count(user: User) -> int:
    return Run.objects.filter(owner=user, status__in=ACTIVE_STATUSES, workspace_id__in=member_workspace_ids(user)).count()

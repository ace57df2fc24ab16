"""From the server process: resumes the runs its earlier life was executing, finds runs whose worker died (no
heartbeat) and resumes them (or marks them failed past their resumes), and prunes old workspaces."""
from __future__ import annotations

import functools
import logging
import socket
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from runtime.durability import continuation, run_files
from runtime.execution import server_loop
from runtime.execution.dispatch import dispatch
from runtime.live.announce import announce_status_sync
from runtime.models import Run, RunStatus

log = logging.getLogger(__name__)
_started = False


def reap_lost_runs() -> list[str]:
    """Runs whose worker stopped beating: each resumes from its last boundary on a live worker (this server on
    the inline backend) or, past its resumes or with RESUME_LOST_RUNS=0, is failed ("worker lost"); its events stay."""
    cutoff = timezone.now() - timedelta(seconds=settings.RUN_LOST_AFTER_S)
    lost = list(Run.objects.filter(status__in=(RunStatus.RUNNING, RunStatus.PAUSED), heartbeat_at__lt=cutoff).values_list("id", flat=True))
    for run_id in lost:
        try:  # one run whose files cannot be put back must not keep every other lost run waiting
            if continuation.resume_or_fail(run_id, "worker lost") == "resumed":
                run = Run.objects.get(pk=run_id)
                transaction.on_commit(functools.partial(dispatch, run))
        except Exception:
            log.exception("run %s: could not be resumed or failed; the next sweep tries again", run_id)
    return [str(r) for r in lost]


def resume_at_start() -> list[str]:
    """When the server starts on the inline backend: the runs its earlier self was executing go on from their
    last boundary (or fail, past their resumes), and queued runs nobody took start."""
    if server_loop.backend_name() != "inline":
        return []
    worker = f"inline@{socket.gethostname()}"
    ours = list(Run.objects.filter(backend="inline", status__in=(RunStatus.RUNNING, RunStatus.PAUSED), worker=worker)
                .values_list("id", flat=True))
    for run_id in ours:
        try:
            continuation.resume_or_fail(run_id, "the server restarted")
        except Exception:
            log.exception("run %s: could not be resumed or failed at start; the reaper tries again", run_id)
    waiting = list(Run.objects.filter(backend="inline", status=RunStatus.QUEUED))
    for run in waiting:
        dispatch(run)
    return [str(r) for r in ours]


def reap_once() -> list[str]:
    lost = reap_lost_runs()
    for run_id in lost:
        log.warning("run %s: worker lost", run_id)
        announce_status_sync(run_id)
    return lost


PRUNE_EVERY_S = 3600.0


def prune_workspaces() -> list[str]:
    """Delete the workspace directories of runs past WORKSPACE_RETENTION_DAYS (their snapshots stay)."""
    pruned = run_files.prune()
    if pruned:
        log.info("pruned the workspaces of %d run(s)", len(pruned))
    return pruned


def _loop() -> None:
    last_prune = 0.0
    # Runs of the server's earlier life go on once its loop runs (or, outside daphne, on a loop of their own).
    server_loop.server_loop_ready(timeout=30.0)
    try:
        for run_id in resume_at_start():
            announce_status_sync(run_id)
    except Exception:
        log.exception("resuming runs at start failed")
    while True:
        time.sleep(settings.RUN_REAPER_INTERVAL_S)
        try:
            reap_once()
            if time.monotonic() - last_prune >= PRUNE_EVERY_S:
                last_prune = time.monotonic()
                prune_workspaces()
        except Exception:
            log.exception("reaper pass failed")


def start_reaper() -> None:
    global _started
    if _started:
        return
    _started = True
    threading.Thread(target=_loop, name="run-reaper", daemon=True).start()

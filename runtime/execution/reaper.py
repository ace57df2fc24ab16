"""From the server process: resumes the runs its earlier life was executing, finds runs whose worker died (no
heartbeat) and resumes them (or marks them failed past their resumes), sends again the tasks of queued runs the
broker lost, and prunes old workspaces."""
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
from runtime.execution import server_loop, tasks
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
            outcome = continuation.resume_or_fail(run_id, "worker lost")
            if outcome == "resumed":
                run = Run.objects.get(pk=run_id)
                transaction.on_commit(functools.partial(dispatch, run))
            elif outcome == "ended":
                announce_status_sync(run_id)
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
            if continuation.resume_or_fail(run_id, "the server restarted") == "ended":
                announce_status_sync(run_id)
        except Exception:
            log.exception("run %s: could not be resumed or failed at start; the reaper tries again", run_id)
    waiting = list(Run.objects.filter(backend="inline", status=RunStatus.QUEUED))
    for run in waiting:
        dispatch(run)
    return [str(r) for r in ours]


# Queued run id -> when this process last sent its task again (time.monotonic()).
_resent: dict[str, float] = {}


def resend_lost_tasks() -> list[str]:
    """Celery: queued runs whose task the broker no longer holds are sent again. A Redis that restarts without its
    data (the default: no RDB, no AOF) forgets every waiting task, and a start made while it was down could not send
    one; such runs would wait forever. When fewer tasks wait in the broker than runs have waited queued for
    RUN_LOST_AFTER_S, each of those runs is sent again (at most once per RUN_LOST_AFTER_S): one sent twice still
    executes once, as only one worker can claim it (runtime.execution.worker.claim)."""
    if server_loop.backend_name() != "celery":
        return []
    now = time.monotonic()
    cutoff = timezone.now() - timedelta(seconds=settings.RUN_LOST_AFTER_S)
    queued = dict(Run.objects.filter(backend="celery", status=RunStatus.QUEUED).values_list("id", "created_at"))
    for gone in set(_resent) - {str(r) for r in queued}:
        del _resent[gone]
    waited = [str(r) for r, created in queued.items() if created < cutoff]
    if not waited:
        return []
    waiting = tasks.broker_waiting()
    if waiting is None or waiting >= len(queued):
        return []  # the broker is out of reach (asked again next sweep), or holds a task for every queued run
    again = [r for r in waited if now - _resent.get(r, -1e9) >= settings.RUN_LOST_AFTER_S]
    sent = [r for r in again if tasks.send(r)]
    for run_id in sent:
        _resent[run_id] = now
    if sent:
        log.warning("sent the tasks of %d queued run(s) again: the broker held %d for %d queued runs", len(sent), waiting,
                    len(queued))
    return sent


def reap_once() -> list[str]:
    resend_lost_tasks()
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

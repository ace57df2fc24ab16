"""From the server process: resumes the runs its earlier life was executing, finds runs whose worker died (no
heartbeat) and resumes them (or marks them failed past their resumes), and prunes old workspaces."""
from __future__ import annotations

import logging
import threading
import time

from django.conf import settings

from runtime import backends, run_files
from runtime.announce import announce_status_sync
from runtime.execution import reap_lost_runs, resume_at_start

log = logging.getLogger(__name__)
_started = False


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
    backends.server_loop_ready(timeout=30.0)
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

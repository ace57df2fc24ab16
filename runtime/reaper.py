"""Finds runs whose worker died (no heartbeat) and marks them failed, from the server process."""
from __future__ import annotations

import logging
import threading
import time

from django.conf import settings

from runtime.announce import announce_status_sync
from runtime.execution import reap_lost_runs

log = logging.getLogger(__name__)
_started = False


def reap_once() -> list[str]:
    lost = reap_lost_runs()
    for run_id in lost:
        log.warning("run %s: worker lost", run_id)
        announce_status_sync(run_id)
    return lost


def _loop() -> None:
    while True:
        time.sleep(settings.RUN_REAPER_INTERVAL_S)
        try:
            reap_once()
        except Exception:
            log.exception("reaper pass failed")


def start_reaper() -> None:
    global _started
    if _started:
        return
    _started = True
    threading.Thread(target=_loop, name="run-reaper", daemon=True).start()

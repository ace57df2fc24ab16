"""Finds runs whose worker died (no heartbeat) and marks them failed, from the server process."""
from __future__ import annotations

import logging
import threading
import time

from asgiref.sync import async_to_sync

log = logging.getLogger(__name__)
_started = False


def reap_once() -> list[str]:
    from runtime.execution import reap_lost_runs, status_payload
    from runtime import broadcast

    lost = reap_lost_runs()
    for run_id in lost:
        log.warning("run %s: worker lost", run_id)
        found = status_payload(run_id)
        if found:
            try:
                async_to_sync(broadcast.send_run_status)(run_id, found[0], found[1])
            except Exception:
                log.exception("could not announce lost run %s", run_id)
    return lost


def _loop() -> None:
    from django.conf import settings

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

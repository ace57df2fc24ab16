"""A run's status, announced to everyone watching it: the one way a status change is told.

A run executing in this process holds a lock while it announces, so two announcements
that overlap (a pause and the run's end) cannot send the older status last. Code that
is not async (views, the reaper thread) calls :func:`announce_status_sync`; live updates
are best effort there, since the database holds the truth and sockets re-read it.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.sync import async_to_sync

from common.orm import off_loop
from common.types import RunId
from runtime.live import broadcast
from runtime.live.serializers import run_dict
from runtime.models import Run

log = logging.getLogger(__name__)

_locks: dict[str, asyncio.Lock] = {}


def status_payload(run_id: RunId) -> tuple[int, dict] | None:
    """(workspace id, the run as the API shows it), or None when it is gone."""
    run = Run.objects.labelled().filter(pk=run_id).first()
    return (run.workspace_id, run_dict(run)) if run else None


@contextmanager
def executing_here(run_id: RunId) -> Iterator[None]:
    """While a run executes in this process, its announcements go one at a time."""
    _locks[str(run_id)] = asyncio.Lock()
    try:
        yield
    finally:
        _locks.pop(str(run_id), None)


async def announce_status(run_id: RunId) -> None:
    lock = _locks.get(str(run_id))
    if lock is None:
        await _send(run_id)
        return
    async with lock:
        await _send(run_id)


def announce_status_sync(run_id: RunId) -> None:
    try:
        async_to_sync(announce_status)(run_id)
    except Exception:
        log.exception("could not announce the status of run %s", run_id)


async def _send(run_id: RunId) -> None:
    found = await off_loop(status_payload)(run_id)
    if found:
        await broadcast.send_run_status(run_id, found[0], found[1])

"""A run's breakpoint holds on the worker's side: the debugger its worker gives the engine, where a hold is stored
for the API (``Run.debug_hold``, and the run paused meanwhile) and the commands the API wrote for it."""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from django.db import transaction

from common.orm import off_loop
from common.types import RunId
from runtime.engine.debugger import Debugger, resolved_keys
from runtime.models import Run, RunEvent


def take_requests(run_id: RunId) -> list[dict]:
    """The commands written for the run, taken."""
    with transaction.atomic():
        found = Run.objects.select_for_update().filter(pk=run_id).values_list("debug_requests", flat=True).first()
        waiting = list(found or [])
        if waiting:
            Run.objects.filter(pk=run_id).update(debug_requests=[])
    return waiting


def _released(run: Run) -> set[str]:
    """The holds this run's events say were released: a resumed run does not hold at them again."""
    rows = RunEvent.objects.filter(run_id=run.pk, type="debug_action").values_list("event_json", flat=True)
    return resolved_keys(json.loads(text) for text in rows)


async def debugger_for(run: Run, store: Callable[[dict | None], Awaitable[None]]) -> Debugger | None:
    """The run's debugger (None without breakpoints); ``store(hold)`` keeps each hold (None: it ended). A run going
    on from a boundary (a resume) does not hold again where its events say it was let go on."""
    if not run.breakpoints:
        return None
    released = await off_loop(_released)(run) if run.start_seq else set()
    return Debugger(run.breakpoints, resolved=released, on_hold=store)


async def deliver(run_id: RunId, debugger: Debugger) -> None:
    """Hand the engine the commands written for the run (the watcher's, every poll)."""
    for command in await off_loop(take_requests)(run_id):
        debugger.command(command)

"""Where runs execute: inside the server process (inline, on :mod:`runtime.execution.server_loop`) or on Celery
workers (:mod:`runtime.execution.tasks`). Control of a run executing in this process is applied here directly."""
from __future__ import annotations

import asyncio
from concurrent.futures import Future

from twisted.internet import defer

from runtime.engine import RunControl
from runtime.execution import tasks
from runtime.execution.server_loop import daphne_reactor, run_loop
from runtime.execution.worker import apply_control, execute_run, hand_back_all
from runtime.models import Run

# Runs executing in this process: run id -> (loop, control).
_live: dict[str, tuple[asyncio.AbstractEventLoop, RunControl]] = {}
_tasks: set = set()


def dispatch(run: Run) -> None:
    if run.backend == "celery":
        tasks.send(str(run.id))  # refused while the broker is down: sent again by the reaper (lost_messages)
        return
    loop = run_loop()
    run_id = str(run.id)

    async def start() -> None:
        entry: tuple[asyncio.AbstractEventLoop, RunControl] | None = None

        def remember(control: RunControl) -> None:
            nonlocal entry
            entry = _live[run_id] = (loop, control)

        try:
            await execute_run(run_id, on_start=remember)
        finally:
            # Only its own entry: an attempt that took the run over (it resumed while this one was thought lost)
            # may execute here too.
            if entry is not None and _live.get(run_id) is entry:
                _live.pop(run_id, None)

    future: Future = asyncio.run_coroutine_threadsafe(start(), loop)
    _tasks.add(future)
    future.add_done_callback(_tasks.discard)


def control_local(run_id: str, action: str, actor: str | None = None) -> bool:
    """Apply an action, asked for by ``actor``, to a run executing in this process; False when it is not here."""
    found = _live.get(run_id)
    if found is None:
        return False
    loop, control = found
    asyncio.run_coroutine_threadsafe(apply_control(run_id, control, action, actor), loop).result(timeout=10)
    return True


def local_futures() -> set:
    return set(_tasks)


def hand_back_at_shutdown() -> None:
    """Under daphne, a SIGTERM (a deploy) gives the runs executing here back before the server stops: each goes on
    from its last boundary when a server starts again, instead of waiting to be found lost."""
    reactor = daphne_reactor()
    if reactor is None:
        return

    def before_shutdown() -> defer.Deferred:
        return defer.Deferred.fromFuture(asyncio.ensure_future(hand_back_all()))

    reactor.addSystemEventTrigger("before", "shutdown", before_shutdown)

"""Where runs execute: inside the server process (inline) or on Celery workers.

The inline backend schedules runs on the server's own event loop, captured by
:func:`capture_server_loop` (installed in config/asgi.py), so the in-memory
channel layer reaches the websocket consumers. Outside an ASGI server (tests
with Django's client, management commands) a private background loop is used.
"""
from __future__ import annotations

import asyncio
import sys
import threading
import time
from concurrent.futures import Future

from django.conf import settings

from runtime.engine import RunControl
from runtime.models import Run

_server_loop: asyncio.AbstractEventLoop | None = None
_private_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()
# Runs executing in this process: run id -> (loop, control).
_live: dict[str, tuple[asyncio.AbstractEventLoop, RunControl]] = {}
_tasks: set = set()


def capture_server_loop(app):
    """ASGI wrapper that remembers the server's event loop on the first connection."""

    async def wrapper(scope, receive, send):
        global _server_loop
        if _server_loop is None:
            _server_loop = asyncio.get_running_loop()
        return await app(scope, receive, send)

    return wrapper


def capture_loop_at_start() -> None:
    """Under daphne, learn the server's loop as soon as it runs rather than at the first connection, so that runs
    resumed when the server starts go on there (where the in-memory channel layer reaches the consumers)."""
    if "twisted.internet.reactor" not in sys.modules:  # not daphne: do not install a reactor here
        return
    from twisted.internet import reactor

    def capture() -> None:
        global _server_loop
        _server_loop = _server_loop or asyncio.get_event_loop()

    reactor.callWhenRunning(capture)


def hand_back_at_shutdown() -> None:
    """Under daphne, a SIGTERM (a deploy) gives the runs executing here back before the server stops: each goes on
    from its last boundary when a server starts again, instead of waiting to be found lost."""
    if "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import defer, reactor

    def before_shutdown():
        from runtime.execution import hand_back_all

        return defer.Deferred.fromFuture(asyncio.ensure_future(hand_back_all()))

    reactor.addSystemEventTrigger("before", "shutdown", before_shutdown)  # type: ignore[arg-type]  # zope Interface signature


def server_loop_ready(timeout: float) -> bool:
    """Wait (at most ``timeout`` seconds) until the server's loop is known and running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _server_loop is not None and _server_loop.is_running():
            return True
        time.sleep(0.05)
    return False


def _loop() -> asyncio.AbstractEventLoop:
    global _private_loop
    if _server_loop is not None and _server_loop.is_running():
        return _server_loop
    with _lock:
        if _private_loop is None or not _private_loop.is_running():
            _private_loop = asyncio.new_event_loop()
            threading.Thread(target=_private_loop.run_forever, name="inline-runs", daemon=True).start()
    return _private_loop


def backend_name() -> str:
    return settings.RUNTIME_BACKEND


def dispatch(run: Run) -> None:
    if run.backend == "celery":
        from runtime.tasks import execute_run_task

        execute_run_task.delay(str(run.id))
        return
    loop = _loop()
    run_id = str(run.id)

    async def start():
        from runtime.execution import execute_run

        def remember(control: RunControl) -> None:
            _live[run_id] = (loop, control)

        try:
            await execute_run(run_id, on_start=remember)
        finally:
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
    from runtime.execution import apply_control

    asyncio.run_coroutine_threadsafe(apply_control(run_id, control, action, actor), loop).result(timeout=10)
    return True


def local_futures() -> set:
    return set(_tasks)

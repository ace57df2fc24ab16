"""The event loop inline runs execute on: the server's own, or a private one outside an ASGI server.

The inline backend schedules runs on the server's loop, captured by :func:`capture_server_loop` (installed in
config/asgi.py), so the in-memory channel layer reaches the websocket consumers. Outside an ASGI server (tests with
Django's client, management commands) a private background loop is used.
"""
from __future__ import annotations

import asyncio
import sys
import threading
import time
from typing import Any

from django.conf import settings

from common.types import ASGIApp, Receive, Scope, Send

_server_loop: asyncio.AbstractEventLoop | None = None
_private_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def capture_server_loop(app: ASGIApp) -> ASGIApp:
    """ASGI wrapper that remembers the server's event loop on the first connection."""

    async def wrapper(scope: Scope, receive: Receive, send: Send) -> Any:
        global _server_loop
        if _server_loop is None:
            _server_loop = asyncio.get_running_loop()
        return await app(scope, receive, send)

    return wrapper


def daphne_reactor() -> Any:
    """Twisted's reactor when daphne installed it, else None: importing it here would install a default reactor."""
    return sys.modules.get("twisted.internet.reactor")


def capture_loop_at_start() -> None:
    """Under daphne, learn the server's loop as soon as it runs rather than at the first connection, so that runs
    resumed when the server starts go on there (where the in-memory channel layer reaches the consumers)."""
    reactor = daphne_reactor()
    if reactor is None:
        return

    def capture() -> None:
        global _server_loop
        _server_loop = _server_loop or asyncio.get_event_loop()

    reactor.callWhenRunning(capture)


def server_loop_ready(timeout: float) -> bool:
    """Wait (at most ``timeout`` seconds) until the server's loop is known and running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _server_loop is not None and _server_loop.is_running():
            return True
        time.sleep(0.05)
    return False


def run_loop() -> asyncio.AbstractEventLoop:
    """The loop an inline run is scheduled on."""
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

"""The one bridge from async code (consumers, the engine's sinks, the ASGI middleware) to the ORM.

Django's ORM is synchronous. Channels' ``database_sync_to_async`` runs a function in a worker
thread and closes stale connections around it. ``thread_sensitive=False`` gives each call its own
thread instead of the one shared sync thread: fifty sockets replaying at once, or a run's event
writes, then never queue behind each other or behind request handling.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from channels.db import database_sync_to_async

P = ParamSpec("P")
R = TypeVar("R")


def off_loop(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``await off_loop(fn)(*args)``: run the ORM work of ``fn`` without blocking the event loop."""
    return database_sync_to_async(fn, thread_sensitive=False)

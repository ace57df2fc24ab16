"""CPU-heavy request work in a few worker processes, each task under a wall-clock bound.

Reading, validating, rendering and importing documents is pure Python: in the server's
threads it would hold the GIL the event loop needs (four heavy validations made a
parallel `GET /me` wait 1.5 s). Here it runs in ``WORK_PROCESSES`` processes, forked
from a forkserver that has the document code imported (so a worker killed for running
over its time is replaced in milliseconds). They keep the server's CPU priority: a lower
one would starve, on a busy machine, the CEL checks they wait for under a wall-clock budget.

A task over ``WORK_TIMEOUT_S`` is killed and answered as :class:`WorkTooLong`; more than
``WORK_QUEUE`` tasks waiting or running at once is answered as :class:`WorkBusy`.
Exceptions a task raises reach the caller as they were raised.
"""
from __future__ import annotations

import asyncio
import atexit
import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from django.conf import settings
from pebble import ProcessExpired, ProcessPool

T = TypeVar("T")

# Imported once in the forkserver, so each forked worker starts with them loaded.
PRELOAD = ["designer.services", "designer.importers.api"]


class WorkTooLong(Exception):
    """A task ran past the time bound and its worker was killed."""


class WorkBusy(Exception):
    """Too many tasks at once; the caller should retry shortly."""


class WorkFailed(Exception):
    """The worker died under the task (killed by the system, out of memory)."""


_pool: ProcessPool | None = None
_pool_lock = threading.Lock()
_slots: threading.BoundedSemaphore | None = None  # one per process: tasks waiting or running
_on_start: list[Callable[[], None]] = []


def on_worker_start(function: Callable[[], None]) -> None:
    """Run ``function`` (module-level, so it can be pickled) in each worker as it starts."""
    _on_start.append(function)


def _start_worker(functions: tuple[Callable[[], None], ...]) -> None:
    for function in functions:
        function()


def _get_pool() -> tuple[ProcessPool, threading.BoundedSemaphore]:
    global _pool, _slots
    with _pool_lock:
        if _slots is None:
            _slots = threading.BoundedSemaphore(settings.WORK_QUEUE)
        if _pool is None or not _pool.active:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            _pool = ProcessPool(max_workers=settings.WORK_PROCESSES, max_tasks=settings.WORK_TASKS_PER_PROCESS,
                                initializer=_start_worker, initargs=(tuple(_on_start),), context=context)
        return _pool, _slots


def run(function: Callable[..., T], *args: Any, what: str = "this request") -> T:
    """``function(*args)`` in a worker process; blocks this thread until done, so never call it on an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError("offload.run blocks: call it from a thread (sync_to_async), not on an event loop")
    if multiprocessing.current_process().daemon:
        # A Celery prefork child is daemonic, and multiprocessing gives such a process no children. It has no
        # server loop to keep free either: the work runs here (CEL inside still runs in its own bounded processes).
        return function(*args)
    pool, slots = _get_pool()
    if not slots.acquire(blocking=False):
        raise WorkBusy(f"the server is busy checking other documents (at most {settings.WORK_QUEUE} at once); try again in a moment")
    try:
        future = pool.schedule(function, args=args, timeout=settings.WORK_TIMEOUT_S)
        try:
            return future.result()
        except FutureTimeout:
            raise WorkTooLong(f"{what} needed more than {settings.WORK_TIMEOUT_S:g} s of work and was stopped; "
                              "it is too large or too complex") from None
        except ProcessExpired as exc:
            raise WorkFailed(f"{what} stopped its worker ({exc}); it is too large or too complex") from None
    finally:
        slots.release()


def warm_up_in_background() -> None:
    """Start the workers now, beside the server's start, rather than on the first request.
    It takes no queue slot: a request arriving meanwhile is never refused because of it."""
    def warm() -> None:
        pool, _ = _get_pool()
        with contextlib.suppress(Exception):  # a courtesy: the first request starts the workers and says what went wrong
            pool.schedule(os.getpid, timeout=settings.WORK_TIMEOUT_S).result()

    threading.Thread(target=warm, name="offload-warm-up", daemon=True).start()


@atexit.register
def _stop() -> None:
    # Workers are not daemons: without this, interpreter exit would wait on them forever.
    if _pool is not None:
        _pool.stop()
        _pool.join(timeout=10)

"""Send a request's body at once on Python 3.11, as aiohttp does by itself from 3.12.

aiohttp writes a request's headers and body from a task of its own. From
Python 3.12 it starts that task eagerly (``eager_start``), so a small request
leaves in the same step that made it. On 3.11 the task waits for the event
loop's next pass, behind every callback already queued. In a fan-out that
matters: a burst of answers is handled in one pass, and the hundred next
requests it makes all wait for the whole burst's processing before any of them
leaves. The burst never spreads out, and every round of the fan-out is longer by
the burst's CPU (``bench/runtime.py``: +25 % over the ideal, about +10 % with
this).

:func:`install` gives the running loop a task factory that starts that one
coroutine eagerly and makes every other task exactly as before. Nothing
backports eager tasks to 3.11, and a loop-wide eager factory would change the
order of every task on a loop that daphne and Channels share: hence this narrow
one.
"""
from __future__ import annotations

import asyncio
import contextvars
import sys
from collections.abc import Coroutine, Iterable
from types import CodeType
from typing import Any

from aiohttp.client_reqrep import ClientRequest

NEEDED = sys.version_info < (3, 12)
BODY_WRITER: CodeType = ClientRequest.write_bytes.__code__


def install(loop: asyncio.AbstractEventLoop | None = None, codes: Iterable[CodeType] = (BODY_WRITER,)) -> None:
    """Start coroutines of ``codes`` eagerly on ``loop`` (the running one by default); a second call for
    the same codes changes nothing, and a factory the loop had already still makes every other task."""
    if not NEEDED:
        return
    loop = loop or asyncio.get_running_loop()
    before = loop.get_task_factory()
    eager = frozenset(codes)
    if eager <= getattr(before, "eager_codes", frozenset()):
        return

    def factory(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kw: Any) -> asyncio.Future:
        if getattr(coro, "cr_code", None) in eager:
            return start_eagerly(loop, coro, kw.get("context"))
        if before is not None:
            return before(loop, coro, **kw)
        return asyncio.Task(coro, loop=loop, **kw)

    factory.eager_codes = eager  # type: ignore[attr-defined]
    loop.set_task_factory(factory)  # type: ignore[arg-type]  # typeshed wants a Task; asyncio takes any Future


def start_eagerly(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any],
                  context: contextvars.Context | None = None) -> asyncio.Future:
    """Run ``coro`` up to its first real wait now; a future that is done already when it did not wait,
    otherwise a task that carries it on from there."""
    context = context if context is not None else contextvars.copy_context()
    try:
        waiting_on = context.run(coro.send, None)
    except StopIteration as finished:
        done = loop.create_future()
        done.set_result(finished.value)
        return done
    except (KeyboardInterrupt, SystemExit):
        raise
    except asyncio.CancelledError:
        cancelled = loop.create_future()
        cancelled.cancel()
        return cancelled
    except BaseException as exc:
        failed = loop.create_future()
        failed.set_exception(exc)
        return failed
    return asyncio.Task(_carry_on(coro, waiting_on), loop=loop, context=context)


async def _carry_on(coro: Coroutine[Any, Any, Any], waiting_on: Any) -> Any:
    """Drive ``coro`` from where its first step stopped, as its own task would have: wait for the future
    it yielded, then resume it; a cancellation (or the future's failure) is thrown into it."""
    while True:
        thrown: BaseException | None = None
        try:
            if asyncio.isfuture(waiting_on):
                waiting_on._asyncio_future_blocking = False  # taken, as Task.__step takes a yielded future
                await waiting_on
            else:  # a bare yield (asyncio.sleep(0)): one pass of the loop
                await asyncio.sleep(0)
        except BaseException as exc:
            thrown = exc
        try:
            waiting_on = coro.send(None) if thrown is None else coro.throw(thrown)
        except StopIteration as finished:
            return finished.value

"""A run's permit as its model calls ask it: read from the database at most once a second per provider.

:func:`runtime.execution.permits.still_holds` reads the owner, their membership, the workspace and its keys: four
queries on a fresh connection of a worker thread. Asked before every model call, a forEach of 100 items at a time
made that the served run's largest cost (a 5,000-item run at 0.2 s a reply took 39 s instead of 10). Calls made
together share one reading, and an answer stays good for :data:`FRESH_S`; a pause or resume forgets it, so work
that starts again after a revocation made while it was held is refused at its first call, as before.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

FRESH_S = 1.0  # how long a key revoked, a member removed or a role lowered may go unseen by a running run


class PermitChecks:
    def __init__(self, check: Callable[[str], Awaitable[str | None]], *, fresh_s: float = FRESH_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._check = check
        self._fresh_s = fresh_s
        self._clock = clock
        self._answers: dict[str, tuple[float, str | None]] = {}  # provider -> (read at, answer)
        self._reading: dict[str, asyncio.Future[str | None]] = {}

    def forget(self, _action: str = "") -> None:
        """Every answer is read again (RunControl.on_change: after a pause, resume or stop)."""
        self._answers.clear()

    async def __call__(self, provider: str) -> str | None:
        """None while the run may call ``provider``; else why not, in words (as ``still_holds``)."""
        answer = self._answers.get(provider)
        if answer is not None and self._clock() - answer[0] < self._fresh_s:
            return answer[1]
        reading = self._reading.get(provider)
        if reading is None:
            reading = self._reading[provider] = asyncio.ensure_future(self._read(provider))
        # Shielded: one caller cancelled (its step stopped) does not cancel the reading the others wait for.
        return await asyncio.shield(reading)

    async def _read(self, provider: str) -> str | None:
        started = self._clock()  # fresh from when the database was asked, not from when it answered
        try:
            answer = await self._check(provider)
        finally:
            self._reading.pop(provider, None)
        self._answers[provider] = (started, answer)
        return answer

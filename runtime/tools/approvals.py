"""Tool calls that wait for a person: "ask before" these tools.

A gated call waits on a future here until someone decides (any watcher of the
run, through the API; the decision reaches a worker through the database) or
the run stops. Plain asyncio: where decisions come from is the caller's
business, through :meth:`Approvals.decide`.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    approved: bool
    reason: str = ""
    actor: str | None = None
    cancelled: bool = False


AskHook = Callable[[str, str, object, str], Awaitable[None]]   # (call id, tool, input, step id)


class Approvals:
    def __init__(self, on_ask: AskHook | None = None) -> None:
        self._waiting: dict[str, asyncio.Future[Decision]] = {}
        self._on_ask = on_ask
        self.closed_reason: str | None = None

    def pending(self) -> list[str]:
        return [call_id for call_id, future in self._waiting.items() if not future.done()]

    async def wait(self, call_id: str, tool: str, arguments: object, step_id: str) -> Decision:
        if self.closed_reason is not None:
            return Decision(False, self.closed_reason, cancelled=True)
        future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = future
        try:
            if self._on_ask is not None:
                await self._on_ask(call_id, tool, arguments, step_id)
            return await future
        finally:
            self._waiting.pop(call_id, None)

    def decide(self, call_id: str, decision: Decision) -> bool:
        """Settle a waiting call; False when nothing waits under that id (decided already, or never asked)."""
        future = self._waiting.get(call_id)
        if future is None or future.done():
            return False
        future.set_result(decision)
        return True

    def close(self, reason: str) -> None:
        """Cancel every waiting call (the run is stopping) and refuse new asks."""
        self.closed_reason = reason
        for call_id in self.pending():
            self.decide(call_id, Decision(False, reason, cancelled=True))

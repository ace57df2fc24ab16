"""Engine runs held at breakpoints: a sink that answers each hold with the next command a test gave it."""
from __future__ import annotations

import asyncio
from collections.abc import Callable

from runtime.engine.debugger import Debugger
from runtime.events import ListSink

DEADLINE_S = 60


class Driver(ListSink):
    """Records every event; at each ``breakpoint_hit`` hands the debugger the next of ``answers`` (each a list of
    commands, or a function of the hit event giving one), so a test scripts what a person does at each hold."""

    def __init__(self, debugger: Debugger, answers: list[list[dict] | Callable[[dict], list[dict]]]) -> None:
        super().__init__()
        self.debugger, self.answers = debugger, list(answers)

    async def emit(self, event: dict) -> None:
        await super().emit(event)
        if event["type"] == "breakpoint_hit":
            assert self.answers, f"an unexpected hold: {event['message']}"
            answer = self.answers.pop(0)
            commands = answer(event) if callable(answer) else answer
            loop = asyncio.get_running_loop()
            for command in commands:  # after the hold began waiting, as a watcher's command would come
                loop.call_soon(self.debugger.command, command)

    def hits(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "breakpoint_hit"]


def cont(actor: str = "ann") -> list[dict]:
    return [{"action": "continue", "actor": actor}]

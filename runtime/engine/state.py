"""Run state that callers see: budgets, control, outcomes and the result."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from runtime.contract import Status

# The contract's statuses (runtime/contract.py), by the names the engine uses.
COMPLETED, FAILED, SKIPPED, CANCELLED = Status.COMPLETED, Status.FAILED, Status.SKIPPED, Status.CANCELLED
PARTIAL = Status.PARTIAL


@dataclass
class Budgets:
    """Limits for one run (not part of the document). None = no limit."""

    max_tokens: int | None = None
    max_cost_usd: float | None = None
    max_duration_s: float | None = None
    max_steps: int | None = None  # agent steps started, loop iterations' steps included

    @classmethod
    def from_dict(cls, data: dict | None) -> Budgets:
        data = data or {}
        return cls(**{k: data.get(k) for k in ("max_tokens", "max_cost_usd", "max_duration_s", "max_steps")})


class RunControl:
    """Pause, resume and stop one run.

    ``pause()`` lets running steps finish but starts no new step or iteration;
    ``resume()`` goes on; ``stop()`` cancels running steps and ends the run as
    ``cancelled``. Call these on the engine's event-loop thread; from another
    thread use ``loop.call_soon_threadsafe(control.pause)``.
    ``state`` is one of ``running``, ``paused``, ``stopping``, ``finished``.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.state = "running"
        self._resumed = asyncio.Event()
        self._resumed.set()
        self._on_stop: list[Callable[[], None]] = []
        self._clock = clock
        self._paused_at: float | None = None
        self._paused_total = 0.0
        self._on_change: list[Callable[[str], None]] = []
        # Who asked for the latest pause, resume or stop (a username), for the event that records it.
        self.actor: str | None = None

    def request(self, action: str, actor: str | None = None) -> None:
        """``pause``, ``resume`` or ``stop`` on behalf of ``actor``."""
        self.actor = actor
        {"pause": self.pause, "resume": self.resume, "stop": self.stop}[action]()

    def pause(self, quiet: bool = False) -> None:
        """``quiet``: a breakpoint's hold, which its own event records (runtime.engine.debugger)."""
        if self.state == "running":
            self.state = "paused"
            self._resumed.clear()
            self._paused_at = self._clock()
            if not quiet:
                self._changed("pause")

    def resume(self, quiet: bool = False) -> None:
        if self.state == "paused":
            self.state = "running"
            self._resumed.set()
            self._end_pause()
            if not quiet:
                self._changed("resume")

    def stop(self) -> None:
        if self.state in ("running", "paused"):
            self.state = "stopping"
            self._resumed.set()
            self._end_pause()
            self._changed("stop")
            for callback in list(self._on_stop):
                callback()

    def on_change(self, callback: Callable[[str], None]) -> None:
        """``callback(action)`` after each pause, resume and stop, so the run's events can record them."""
        self._on_change.append(callback)

    def _changed(self, action: str) -> None:
        for callback in list(self._on_change):
            callback(action)

    def _end_pause(self) -> None:
        if self._paused_at is not None:
            self._paused_total += self._clock() - self._paused_at
            self._paused_at = None

    def paused_seconds(self) -> float:
        """Time spent paused so far: durations leave it out (a paused run is not working)."""
        current = self._clock() - self._paused_at if self._paused_at is not None else 0.0
        return self._paused_total + current

    @property
    def paused(self) -> bool:
        return self.state == "paused"

    async def wait_running(self) -> None:
        """Return at once unless paused; then wait for resume (or stop)."""
        if self.state == "paused":
            await self._resumed.wait()

    def on_stop(self, callback: Callable[[], None]) -> None:
        self._on_stop.append(callback)


@dataclass
class Outcome:
    """What one step (or iteration, or loop) ended with."""

    status: str
    content: str = ""
    result: Any = None
    error: str | None = None
    blocked: bool = False  # skipped/failed because a dependency failed: dependents follow suit

    def cel(self) -> dict:
        return {"content": self.content, "status": self.status, "result": self.result}


@dataclass
class LoopMeta:
    rounds_completed: int = 0
    broke_early: bool = False
    break_reason: str = ""
    stop_rule: str = ""  # the run policy's rule when break_reason is "policy"

    def as_dict(self) -> dict:
        out = {"rounds_completed": self.rounds_completed, "broke_early": self.broke_early,
               "break_reason": self.break_reason}
        if self.stop_rule:
            out["stop_rule"] = self.stop_rule
        return out


@dataclass
class RunResult:
    status: str                      # completed / partial (some steps completed, some failed) / failed / cancelled
    reason: str = ""                 # why it did not complete (empty when it did)
    code: str = ""                   # stable cause: step_failed, aborted, stopped, budget:max_tokens, timeout ...
    tokens: dict = field(default_factory=lambda: {"prompt": 0, "completion": 0, "total": 0})
    cost_usd: float = 0.0
    duration_s: float = 0.0
    loops: dict[str, dict] = field(default_factory=dict)   # loop step id -> LoopMeta.as_dict()
    steps: dict[str, Outcome] = field(default_factory=dict)  # top-level step id -> outcome
    warnings: list[str] = field(default_factory=list)
    events: int = 0
    unpriced_models: list[str] = field(default_factory=list)  # models whose price is unknown: not in cost_usd
    summary: str = ""   # the coordinator's synthesis (its last finalize), empty without one

    def as_dict(self) -> dict:
        return {
            "status": self.status, "reason": self.reason, "code": self.code, "tokens": dict(self.tokens),
            "cost_usd": self.cost_usd, "duration_s": self.duration_s, "loops": dict(self.loops),
            "steps": {k: {"status": v.status, "error": v.error} for k, v in self.steps.items()},
            "warnings": list(self.warnings), "events": self.events, "unpriced_models": list(self.unpriced_models),
            "summary": self.summary,
        }

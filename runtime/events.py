"""Run events: one emitter, and sinks that consume what it emits.

Every state change of a run becomes one event through :class:`Emitter`, which
stamps the zenflow envelope (``type``, ``seq``, ``timestamp``, ``runId``, and
the structured ``where`` and ``durationMs``: the contract is
:mod:`runtime.contract`) and hands the dict to a sink. A sink is any object with
``async def emit(self, event: dict) -> None``; it must be cheap (the engine
awaits it inline), so a sink that writes to a database should batch.

Event types follow the zenflow NDJSON stream (``workflow_start``,
``step_start``, ``agent_turn``, ``output`` ...) plus this runner's loop events
(``iteration_start``, ``iteration_end``, ``judge_verdict``, ``loop_end``),
which consumers that do not know them skip.
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from runtime.contract import locate
from runtime.numbering import iteration_words


class Sink(Protocol):
    async def emit(self, event: dict) -> None: ...


class TextStream(Protocol):
    """Where the text sinks write: a file, sys.stdout, a management command's ``self.stdout``."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...


_second_cache: list = [None, ""]


def rfc3339(ts: float) -> str:
    """``2026-11-22T01:41:33.123Z`` for a POSIX timestamp (the second's text is cached: events are hot)."""
    sec = int(ts)
    if _second_cache[0] != sec:
        _second_cache[1] = datetime.fromtimestamp(sec, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        _second_cache[0] = sec
    return f"{_second_cache[1]}.{int((ts - sec) * 1000):03d}Z"


def format_duration(seconds: float) -> str:
    """Go-style duration text, millisecond precision: ``1.234s``, ``250ms``, ``1m30s``, ``0s``."""
    ms = round(max(seconds, 0.0) * 1000)
    if ms == 0:
        return "0s"
    if ms < 1000:
        return f"{ms}ms"
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs = f"{rest / 1000:.3f}".rstrip("0").rstrip(".")
    if hours:
        return f"{hours}h{minutes}m{secs}s"
    if minutes:
        return f"{minutes}m{secs}s"
    return f"{secs}s"


class Emitter:
    """The one place events are made: numbers them and stamps the envelope."""

    def __init__(self, run_id: str, sink: Sink, clock: Callable[[], float] = time.time) -> None:
        self.run_id = run_id
        self.sink = sink
        self.clock = clock
        self.seq = 0

    async def emit(self, type: str, *, step_id: str | None = None, duration: float | None = None,
                   **fields: Any) -> dict:
        """One event of :mod:`runtime.contract`: ``duration`` in seconds, ``where`` from the step id."""
        self.seq += 1
        event: dict[str, Any] = {"type": type, "seq": self.seq, "timestamp": rfc3339(self.clock()),
                                 "runId": self.run_id}
        if step_id is not None:
            event["stepId"] = step_id
            where = locate(step_id)
            if where is not None:
                event["where"] = dict(where)  # a copy: the located structure is cached
        if duration is not None:
            event["duration"] = format_duration(duration)
            event["durationMs"] = round(max(duration, 0.0) * 1000, 3)
        for key, value in fields.items():
            if value is not None:
                event[key] = value
        await self.sink.emit(event)
        return event


class ListSink:
    """Keeps every event in memory (tests, short runs)."""

    def __init__(self) -> None:
        self.events: list[dict] = []

    async def emit(self, event: dict) -> None:
        self.events.append(event)

    def of_type(self, *types: str) -> list[dict]:
        return [e for e in self.events if e["type"] in types]


class NullSink:
    """Counts events and drops them (benchmarks)."""

    def __init__(self) -> None:
        self.count = 0

    async def emit(self, event: dict) -> None:
        self.count += 1


def upstream_event(event: dict) -> dict:
    """The event as ``runworkflow --json`` prints it, for upstream's ``--json`` consumers (docs/ndjson.md;
    :data:`runtime.contract.UPSTREAM`): ours, with what upstream keeps elsewhere filled in (a copy when anything
    is). The stored events and the API's stay as they are."""
    if event.get("type") == "agent_turn":
        data = event.get("data") or {}
        # Upstream carries the reasoning text on the envelope; ours keeps it in data (shown folded) as well.
        text = data.get("reasoning")
        if isinstance(text, str) and text and "reasoning" not in event:
            return {**event, "reasoning": text}
    return event


class NdjsonSink:
    """One JSON object per line, flushed per event so a pipe sees it live; as upstream's ``--json`` prints it
    (:func:`upstream_event`: what upstream keeps elsewhere is filled in, ours stay as additions)."""

    def __init__(self, stream: TextStream | None = None) -> None:
        self.stream: TextStream = stream or sys.stdout

    async def emit(self, event: dict) -> None:
        self.stream.write(json.dumps(upstream_event(event), ensure_ascii=False, default=str) + "\n")
        self.stream.flush()


def _short(value: Any, limit: int = 100) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _iteration_label(loop: str, data: dict) -> str:
    """A round or item the way every page says it (the numbering rule): "round 1 (write.0)", "item 306 (each[305])"."""
    if "iteration" in data:
        return iteration_words(loop, int(data["iteration"]), "repeat")
    return iteration_words(loop, int(data.get("index") or 0), "forEach")


# Messages and the coordinator in the live view, with the marks upstream's examples show.
_TALK: dict[str, Callable[[dict, dict], str]] = {
    "message_sent": lambda e, d: f"  ⇠ [{d.get('sender')}] sent to {d.get('to')}: {_short(d.get('text', ''))}",
    "coordinator_message": lambda e, d: f"  ⇠ [coordinator] sent to {d.get('to')}: {_short(d.get('text', ''))}",
    "agent_inbox_drain": lambda e, d: f"  ⇢ [{e.get('stepId')}] received from {d.get('sender')}: {_short(d.get('text', ''))}",
    "coordinator_narration": lambda e, d: f"  ≋ [coordinator] {_short(d.get('text', ''), 300)}",
    "coordinator_synthesis": lambda e, d: f"  ∑ [coordinator] {_short(d.get('summary', ''), 1000)}",
    "message_dropped": lambda e, d: f"  ✗ {d.get('id')} to {d.get('to')} dropped: {d.get('reason')}",
    "max_wake_cycles_warning": lambda e, d: f"  ! {e.get('message', '')}",
}


class PrintSink:
    """A readable live view: one line per step, loop and verdict, with progress.

    Streamed ``output`` deltas are not echoed (they would interleave between
    parallel steps); the finished step's content is summarised instead.
    ``verbose`` also prints each agent's assembled prompt.
    """

    def __init__(self, stream: TextStream | None = None, verbose: bool = False) -> None:
        self.stream: TextStream = stream or sys.stdout
        self.verbose = verbose
        self.total = 0
        self.finished = 0

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    async def emit(self, event: dict) -> None:  # one branch per event type
        kind = event["type"]
        sid = event.get("stepId", "")
        data = event.get("data") or {}
        if kind == "workflow_start":
            self.total = data.get("total", 0)
            self._line(f"▶ {data.get('name', 'workflow')}: {self.total} steps (run {event['runId']})")
        elif kind == "step_start":
            extra = ""
            if data.get("loop_type"):
                extra = f" [{data['loop_type']}" + (f", {data['items']} items" if "items" in data else "") + "]"
            if data.get("include"):
                extra = f" [include {data['include']}]"
            self._line(f"  ● {sid}{extra} started" + (f" ({event['agent']})" if event.get("agent") else ""))
        elif kind == "step_end":
            status = data.get("status", "?")
            mark = {"completed": "✓", "failed": "✗", "cancelled": "■", "skipped": "○"}.get(status, "?")
            if "." not in sid and "[" not in sid:
                self.finished += 1
            progress = f" [{self.finished}/{self.total}]" if "." not in sid and "[" not in sid else ""
            tail = f": {_short(event['error'])}" if event.get("error") else (
                f": {_short(data.get('content', ''), 80)}" if data.get("content") else "")
            self._line(f"  {mark} {sid} {status} in {event.get('duration', '?')}{progress}{tail}")
        elif kind == "step_skipped":
            if "." not in sid and "[" not in sid:
                self.finished += 1
            self._line(f"  ○ {sid} skipped: {event.get('message', '')}")
        elif kind == "iteration_start":
            self._line(f"    ↻ {sid} {_iteration_label(sid, data)}")
        elif kind == "iteration_end":
            self._line(f"    ↺ {sid} {_iteration_label(sid, data)} {data.get('status')}")
        elif kind == "judge_verdict":
            done = data.get("done")
            verdict = "failed open" if data.get("failed_open") else ("done" if done else "continue")
            self._line(f"    ⚖ {sid} judge after {_iteration_label(sid, data)}: {verdict}"
                       + (f" ({_short(data.get('reason') or '', 80)})" if data.get("reason") else ""))
        elif kind == "loop_end":
            rounds = data.get("rounds_completed")
            noun = "round" if rounds == 1 else "rounds"
            self._line(f"    ⟲ {sid} loop ended after {rounds} {noun}: {data.get('break_reason')}")
        elif kind == "agent_turn" and self.verbose and data.get("phase") == "request" and data.get("prompt"):
            prompt = data["prompt"]
            self._line(f"    ┌ prompt for {sid} ({event.get('agent')})\n" + prompt.get("user", ""))
        elif kind in _TALK:
            self._line(_TALK[kind](event, data))
        elif kind == "message":
            self._line(f"  ! {event.get('message', '')}")
        elif kind == "error":
            self._line(f"  ✗ {sid or 'run'}: {event.get('error', '')}")
        elif kind == "workflow_end":
            tokens = event.get("tokens") or {}
            cost = data.get("cost_usd", 0.0)
            reason = f" ({data['reason']})" if data.get("reason") else ""
            self._line(f"■ {data.get('status')}{reason} in {event.get('duration', '?')}, "
                       f"{tokens.get('total', 0)} tokens, ${cost:.4f}")

"""A run's view: what the run page draws, folded from its events, whatever their number.

The browser used to receive every event and fold them itself; at 20,000 forEach
items that was 100,000 events and a page that could not keep up. The server
folds them here instead, into a state whose size depends on the run's shape,
not its length: per top-level step its status, timing and tokens; per loop its
counts by status, the items or rounds that matter now (running, failed, the
last few finished), the judge's verdicts, the output so far (its tail) and a
string of one status letter per item or round for the grid, and its rounds in at
most 500 buckets for the chart (:mod:`runtime.live.view.rounds`); the run's messages
as counts and the last few (:mod:`runtime.live.view.mail`). :meth:`RunView.patch`
gives what changed since the last patch, so watchers get a snapshot and then
small patches at a bounded rate.

The same fold runs live and over stored events (``RunView.of(events)``), which
is what makes a rebuilt view equal the live one. Events and their data are typed by
:mod:`runtime.engine.shapes`, the view's own parts by the TypedDicts below (plain dicts at run time).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from runtime.contract import locate
from runtime.engine.shapes import (
    AgentTurnData,
    IterationEndData,
    IterationStartData,
    JudgeVerdictData,
    LoopEndData,
    RunControlData,
    StepEndData,
    StepSkippedData,
    StepStartData,
    StoredEvent,
    Tokens,
    ToolCallData,
    WorkflowEndData,
    WorkflowStartData,
)
from runtime.live.view.mail import MAIL_TYPES, MailView
from runtime.live.view.rounds import RoundBuckets

CODES = {"completed": "c", "failed": "f", "skipped": "s", "cancelled": "x"}
RUNNING, QUEUED = "r", "."
KEEP_RUNNING = 100       # running items listed by index (the rest are counted)
KEEP_FAILED = 100        # failed items listed with their error
KEEP_RECENT = 10         # last finished items
KEEP_VERDICTS = 500      # judge verdicts (a repeat-until's rounds)
OUTPUT_TAIL = 64 * 1024  # characters of a loop's output kept (the full text is in its loop_end event)


class RunSummary(TypedDict):
    """The run's header: its status, totals and timing."""

    status: str
    tokens: Tokens
    cost_usd: float | None
    started: str | None
    ended: str | None
    reason: str
    total_steps: int | None
    paused: bool
    tools_running: int


class StepSummary(TypedDict):
    """A top-level step (steps inside loop iterations are counted in their loop)."""

    status: str
    kind: str                        # "agent", "loop" or "include"
    started: str | None
    ended: str | None
    duration_ms: float | None
    tokens: int
    error: str | None
    agent: str | None
    attempts: NotRequired[int | None]  # once it ended


class ItemSummary(TypedDict):
    """A finished item or round."""

    index: int
    status: str
    duration_ms: float | None


class FailedItem(ItemSummary):
    error: str | None


class VerdictSummary(TypedDict):
    iteration: int | None
    done: bool | None
    reason: str | None
    failed_open: bool


class LoopSummary(TypedDict):
    """:meth:`LoopView.as_dict`: what a watcher gets of a loop."""

    id: str
    type: str
    total: int | None
    counts: dict[str, int]
    tokens: int
    started: str | None
    ended: str | None
    running: list[int]
    running_count: int
    failed: list[FailedItem]
    recent: list[ItemSummary]
    verdicts: list[VerdictSummary]
    output: str
    output_truncated: bool
    rounds_completed: int | None
    break_reason: str | None


def _tokens(event: StoredEvent) -> int:
    tokens: Tokens | dict[str, int] = event.get("tokens") or {}
    return int(tokens.get("total") or 0)


@dataclass
class LoopView:
    id: str
    type: str = ""
    total: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    tokens: int = 0
    started: str | None = None
    ended: str | None = None
    running: dict[int, str] = field(default_factory=dict)          # index -> started at
    failed: list[FailedItem] = field(default_factory=list)
    recent: deque[ItemSummary] = field(default_factory=lambda: deque(maxlen=KEEP_RECENT))
    verdicts: deque[VerdictSummary] = field(default_factory=lambda: deque(maxlen=KEEP_VERDICTS))
    output: str = ""
    output_truncated: bool = False
    rounds_completed: int | None = None
    break_reason: str | None = None
    items: list[str] = field(default_factory=list)                  # one status letter per item or round
    outcome: dict[int, str] = field(default_factory=dict)           # index -> its last final status
    rounds: RoundBuckets = field(default_factory=RoundBuckets)      # the chart's buckets, sent apart from the rest

    def as_dict(self) -> LoopSummary:
        return {"id": self.id, "type": self.type, "total": self.total, "counts": dict(self.counts),
                "tokens": self.tokens, "started": self.started, "ended": self.ended,
                "running": sorted(self.running)[:KEEP_RUNNING], "running_count": len(self.running),
                "failed": list(self.failed), "recent": list(self.recent), "verdicts": list(self.verdicts),
                "output": self.output, "output_truncated": self.output_truncated,
                "rounds_completed": self.rounds_completed, "break_reason": self.break_reason}


# What the fold reads; the rest (streamed output, plain messages, agents' prompts) is never loaded to build a view.
FOLDED_TYPES = ("workflow_start", "workflow_end", "run_control", "breakpoint_hit", "debug_action", "agent_turn", "tool_call", "step_start", "step_end",
                "step_skipped", "iteration_start", "iteration_end", "judge_verdict", "loop_end", *MAIL_TYPES)


class RunView:
    def __init__(self) -> None:
        self.seq = 0
        self.run: RunSummary = {"status": "queued", "tokens": {"prompt": 0, "completion": 0, "total": 0},
                                "cost_usd": None, "started": None, "ended": None, "reason": "", "total_steps": None,
                                "paused": False, "tools_running": 0}
        self.steps: dict[str, StepSummary] = {}
        self.loops: dict[str, LoopView] = {}
        self.mail = MailView()
        self._dirty_run = False
        self._dirty_mail = False
        self._dirty_steps: set[str] = set()
        self._dirty_loops: set[str] = set()
        self._dirty_items: dict[str, dict[int, str]] = {}
        self._reset_items: set[str] = set()   # loops whose whole grid string goes in the next patch
        self._dirty_rounds: set[str] = set()

    @classmethod
    def of(cls, events: Iterable[StoredEvent]) -> RunView:
        view = cls()
        for event in events:
            view.apply(event)
        view.patch()  # a rebuilt view has nothing pending
        return view

    def skip_to(self, seq: int) -> None:
        """Events up to ``seq`` were all seen (the ones the fold does not read were left unread)."""
        self.seq = max(self.seq, seq)

    # -- reading -----------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {"seq": self.seq, "run": dict(self.run), "steps": {k: dict(v) for k, v in self.steps.items()},
                "loops": {k: v.as_dict() for k, v in self.loops.items()},
                "items": {k: "".join(v.items) for k, v in self.loops.items()},
                "rounds": {k: v.rounds.as_dict() for k, v in self.loops.items()}, "mail": self.mail.as_dict()}

    def patch(self) -> dict[str, Any] | None:
        """What changed since the last patch (None: nothing), and forget it."""
        if not (self._dirty_run or self._dirty_steps or self._dirty_loops or self._dirty_items or self._reset_items
                or self._dirty_rounds or self._dirty_mail):
            return None
        out: dict[str, Any] = {"seq": self.seq}
        if self._dirty_run:
            out["run"] = dict(self.run)
        if self._dirty_steps:
            out["steps"] = {k: dict(self.steps[k]) for k in sorted(self._dirty_steps)}
        if self._dirty_loops:
            out["loops"] = {k: self.loops[k].as_dict() for k in sorted(self._dirty_loops)}
        if self._reset_items:
            out["items_full"] = {k: "".join(self.loops[k].items) for k in sorted(self._reset_items)}
        changes = {k: sorted(v.items()) for k, v in self._dirty_items.items() if k not in self._reset_items}
        if changes:
            out["items"] = changes
        rounds = {k: self.loops[k].rounds.take_patch() for k in sorted(self._dirty_rounds) if k in self.loops}
        if any(rounds.values()):
            out["rounds"] = {k: v for k, v in rounds.items() if v}
        if self._dirty_mail:
            out["mail"] = self.mail.as_dict()
        self._dirty_mail = False
        self._dirty_run, self._dirty_steps, self._dirty_loops, self._dirty_items = False, set(), set(), {}
        self._reset_items, self._dirty_rounds = set(), set()
        return out

    @staticmethod
    def merge(snapshot: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
        """A patch applied to a snapshot, as a watcher does (the same rule the browser follows)."""
        snapshot["seq"] = patch["seq"]
        if "run" in patch:
            snapshot["run"] = patch["run"]
        snapshot["steps"].update(patch.get("steps", {}))
        snapshot["loops"].update(patch.get("loops", {}))
        snapshot["items"].update(patch.get("items_full", {}))
        for loop, changes in patch.get("items", {}).items():
            letters = list(snapshot["items"].get(loop, ""))
            for index, code in changes:
                letters.extend(QUEUED * (index + 1 - len(letters)))
                letters[index] = code
            snapshot["items"][loop] = "".join(letters)
        if "mail" in patch:
            snapshot["mail"] = patch["mail"]
        held = snapshot.setdefault("rounds", {})
        for loop, rounds in patch.get("rounds", {}).items():
            held[loop] = RoundBuckets.merge_patch(held.get(loop), rounds)
        return snapshot

    # -- folding -----------------------------------------------------------------
    def apply(self, event: StoredEvent) -> None:
        seq = event.get("seq") or 0
        if seq and seq <= self.seq:
            return  # seen: the fold is idempotent by seq
        self.seq = seq or self.seq
        kind = event.get("type")
        if kind in MAIL_TYPES:
            self._dirty_mail = self.mail.apply(event, event.get("data") or {}) or self._dirty_mail
            return
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:  # each one names the shape of its type's data
            handler(event, event.get("data") or {})

    def _touch_run(self) -> None:
        self._dirty_run = True

    def _on_workflow_start(self, event: StoredEvent, data: WorkflowStartData) -> None:
        self.run.update({"status": "running", "started": event.get("timestamp"), "total_steps": data.get("total")})
        self._touch_run()

    def _on_workflow_end(self, event: StoredEvent, data: WorkflowEndData) -> None:
        tokens = event.get("tokens")
        if tokens:  # the engine's own total: what the header says at the end is the server's number
            self.run["tokens"] = {"prompt": int(tokens.get("prompt") or 0),
                                  "completion": int(tokens.get("completion") or 0),
                                  "total": int(tokens.get("total") or 0)}
        self.run.update({"status": data.get("status", "completed"), "ended": event.get("timestamp"),
                         "reason": data.get("reason") or "", "cost_usd": data.get("cost_usd"), "paused": False})
        self._touch_run()

    def _on_run_control(self, event: StoredEvent, data: RunControlData) -> None:
        action = data.get("action")
        if action in ("pause", "resume"):
            self.run["paused"] = action == "pause"
            self._touch_run()

    def _on_breakpoint_hit(self, event: StoredEvent, data: dict) -> None:
        self.run["paused"] = True  # held at a breakpoint, as a pause holds it
        self._touch_run()

    def _on_debug_action(self, event: StoredEvent, data: dict) -> None:
        if data.get("action") != "edit":
            self.run["paused"] = False
            self._touch_run()

    def _on_agent_turn(self, event: StoredEvent, data: AgentTurnData) -> None:
        if data.get("phase") != "response":
            return
        tokens: Tokens | dict[str, int] = event.get("tokens") or {}
        totals = self.run["tokens"]
        totals["prompt"] += int(tokens.get("prompt") or 0)
        totals["completion"] += int(tokens.get("completion") or 0)
        totals["total"] += int(tokens.get("total") or 0)
        self._touch_run()
        where = event.get("where") or locate(event.get("stepId") or "")
        if where and (loop_id := where.get("loop")):
            loop = self._loop(loop_id)
            loop.tokens += _tokens(event)
            self._dirty_loops.add(loop.id)
            index = where.get("item", where.get("iteration"))
            if isinstance(index, int):
                loop.rounds.spent(index, _tokens(event), data.get("cost_usd"))
                self._dirty_rounds.add(loop.id)

    def _on_tool_call(self, event: StoredEvent, data: ToolCallData) -> None:
        self.run["tools_running"] += 1 if data.get("phase") == "start" else -1
        self._touch_run()

    def _on_step_start(self, event: StoredEvent, data: StepStartData) -> None:
        step_id = event.get("stepId") or ""
        if locate(step_id) and (locate(step_id) or {}).get("loop"):
            return  # a step inside a loop iteration: counted in its loop
        loop_type = data.get("loop_type")
        kind = "loop" if loop_type else "include" if data.get("include") else "agent"
        self.steps[step_id] = {"status": "running", "kind": kind, "started": event.get("timestamp"), "ended": None,
                               "duration_ms": None, "tokens": 0, "error": None, "agent": event.get("agent")}
        self._dirty_steps.add(step_id)
        if loop_type:
            loop = self.loops[step_id] = LoopView(step_id)  # a retried loop starts over, and so does its view
            self._reset_items.add(step_id)
            self._dirty_items.pop(step_id, None)
            loop.type = loop_type
            loop.total = data.get("items") if loop.type == "forEach" else data.get("max_iterations")
            loop.started = event.get("timestamp")
            if loop.type == "forEach" and isinstance(loop.total, int):
                loop.items = [QUEUED] * loop.total
                loop.rounds = RoundBuckets(loop.total)  # its width known at once: no merging as it fills
            self._dirty_rounds.add(step_id)
            self._dirty_loops.add(step_id)

    def _on_step_end(self, event: StoredEvent, data: StepEndData) -> None:
        step_id = event.get("stepId") or ""
        step = self.steps.get(step_id)
        if step is None:
            return
        step.update({"status": data.get("status", "completed"), "ended": event.get("timestamp"),
                     "duration_ms": event.get("durationMs"), "tokens": _tokens(event) or step["tokens"],
                     "error": event.get("error"), "attempts": data.get("attempts")})
        self._dirty_steps.add(step_id)

    def _on_step_skipped(self, event: StoredEvent, data: StepSkippedData) -> None:
        step_id = event.get("stepId") or ""
        if (locate(step_id) or {}).get("loop"):
            return
        self.steps[step_id] = {"status": "skipped", "kind": "agent", "started": None, "ended": event.get("timestamp"),
                               "duration_ms": 0, "tokens": 0, "error": None, "agent": event.get("agent")}
        self._dirty_steps.add(step_id)

    def _loop(self, loop_id: str) -> LoopView:
        loop = self.loops.get(loop_id)
        if loop is None:
            loop = self.loops[loop_id] = LoopView(loop_id)
            self._dirty_rounds.add(loop_id)
        return loop

    @staticmethod
    def _position(data: IterationStartData | IterationEndData) -> int | None:
        value = data.get("index") if data.get("index") is not None else data.get("iteration")
        return value if isinstance(value, int) and value >= 0 else None

    def _set_item(self, loop: LoopView, index: int, code: str) -> None:
        if index >= len(loop.items):
            loop.items.extend(QUEUED * (index + 1 - len(loop.items)))
        if loop.items[index] != code:
            loop.items[index] = code
            self._dirty_items.setdefault(loop.id, {})[index] = code

    def _on_iteration_start(self, event: StoredEvent, data: IterationStartData) -> None:
        index = self._position(data)
        if index is None:
            return
        loop = self._loop(event.get("stepId") or "")
        loop.running[index] = event.get("timestamp") or ""
        self._set_item(loop, index, RUNNING)
        self._dirty_loops.add(loop.id)

    def _on_iteration_end(self, event: StoredEvent, data: IterationEndData) -> None:
        index = self._position(data)
        if index is None:
            return
        loop = self._loop(event.get("stepId") or "")
        status = data.get("status", "completed")
        loop.running.pop(index, None)
        before = loop.outcome.get(index)
        if before is not None:  # run again (a retry policy, a retried loop): counted once, by its last outcome
            loop.counts[before] -= 1
            if not loop.counts[before]:
                del loop.counts[before]
            loop.failed = [f for f in loop.failed if f["index"] != index]
        loop.outcome[index] = status
        loop.counts[status] = loop.counts.get(status, 0) + 1
        self._set_item(loop, index, CODES.get(status, "c"))
        loop.rounds.finished(index, status, event.get("durationMs"), data.get("result"), before)
        self._dirty_rounds.add(loop.id)
        entry: ItemSummary = {"index": index, "status": status, "duration_ms": event.get("durationMs")}
        if status == "failed" and len(loop.failed) < KEEP_FAILED:
            loop.failed.append({**entry, "error": data.get("error") or event.get("error")})
        loop.recent.append(entry)
        content = data.get("content")
        if isinstance(content, str) and content:
            joined = f"{loop.output}\n\n---\n\n{content}" if loop.output else content
            if len(joined) > OUTPUT_TAIL:
                joined, loop.output_truncated = joined[-OUTPUT_TAIL:], True
            loop.output = joined
        self._dirty_loops.add(loop.id)

    def _on_judge_verdict(self, event: StoredEvent, data: JudgeVerdictData) -> None:
        loop = self._loop(event.get("stepId") or "")
        loop.verdicts.append({"iteration": data.get("iteration"), "done": data.get("done"),
                              "reason": data.get("reason"), "failed_open": bool(data.get("failed_open"))})
        self._dirty_loops.add(loop.id)
        iteration = data.get("iteration")
        if isinstance(iteration, int) and iteration >= 0:
            loop.rounds.judged(iteration, data.get("done"), bool(data.get("failed_open")), data.get("result"))
            self._dirty_rounds.add(loop.id)

    def _on_loop_end(self, event: StoredEvent, data: LoopEndData) -> None:
        loop = self._loop(event.get("stepId") or "")
        loop.ended = event.get("timestamp")
        loop.rounds_completed = data.get("rounds_completed")
        loop.break_reason = data.get("break_reason")
        loop.running.clear()
        self._dirty_loops.add(loop.id)

"""Breakpoints and stepping: a run that reaches a breakpoint holds there, at that exact boundary.

A :class:`Debugger` is given to a run (``RunOptions.debugger``) with the run's breakpoints, already checked by
:mod:`designer.breakpoints`. The engine asks it at its step boundaries, only when the run has one
(``ctx.debugger`` is None otherwise, so a run without breakpoints pays one attribute test per boundary):

* :meth:`Debugger.before_step` in ``run_step``, after the step's ``condition`` (``step`` breakpoints, in any
  execution or only in round k / item k of the loop around it; ``condition`` breakpoints: a CEL expression over
  the run's state, which fires when it becomes true);
* :meth:`Debugger.before_round` in a repeat-until (``round``: before round k) and a forEach (``round`` with
  ``item``: before item k);
* :meth:`Debugger.after_verdict` once a judge answered (``judge``: when it says done, or not done);
* :meth:`Debugger.before_tool` before a tool call runs (``tool``: by the tool's name).

A hit is one ``breakpoint_hit`` event (which breakpoint, where, and the inputs the next agent turn will receive:
its prompt as assembled, the previous round's output, the item, the tools offered, the CEL scope as values). The
run is then held like a pause (running steps finish their turn, nothing new starts) until a command comes
(:meth:`Debugger.command`, from the run's watcher): ``edit`` changes the pending inputs for this run only
(``previous_output``, ``item``, ``instructions``, or one of the pending step's ``contextFiles`` by its ``path``:
the text its prompt gets instead of the file's, which stays as it is), ``continue`` goes on, ``step`` goes on to
the next boundary and holds there again, ``skip`` gives the pending step (or round, or tool call) the output typed
instead of running it. Each command is one ``debug_action`` event naming its actor.

Each hit has a key (the breakpoint and the exact execution it held before): a key that was released (by
``continue``, ``step`` or ``skip``) does not hold again, so a run resumed after its worker died holds at a
breakpoint it had not left, once, and not at the ones it had (``resolved``, read from its events).
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from designer.cel import CelError, evaluate_async
from runtime.engine.prompting import EDITED_FILES
from runtime.engine.state import Outcome
from runtime.numbering import iteration_words

RELEASES = ("continue", "step", "skip")
STEPPING = "step"  # the id a hit made by Step carries
CONTEXT_FILE = "context_file"  # the edit of one context file: its command and event name the file's ``path``


@dataclass(frozen=True)
class Breakpoint:
    id: str
    kind: str                  # step, round, judge, condition, tool
    step: str = ""             # the step's id (for round and judge: the loop step's)
    round: int | None = None
    item: int | None = None
    done: bool | None = None   # judge: holds when the verdict's done is this
    condition: str = ""
    tool: str = ""

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Breakpoint:
        return cls(id=str(data.get("id") or ""), kind=str(data.get("kind") or ""), step=str(data.get("step") or ""),
                   round=data.get("round"), item=data.get("item"), done=data.get("done"),
                   condition=str(data.get("condition") or ""), tool=str(data.get("tool") or ""))

    def as_dict(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind}
        for name in ("step", "round", "item", "done", "condition", "tool"):
            value = getattr(self, name)
            if value not in (None, ""):
                out[name] = value
        return out


@dataclass
class Pending:
    """What a hold holds before: the inputs shown, and what the edits and a skip change."""

    where: dict
    inputs: dict
    editable: tuple[str, ...] = ()
    skippable: bool = False
    apply: Callable[[str, Any, str], Awaitable[dict]] | None = None  # an edit: field, value, file -> the inputs now
    edits: dict[str, Any] = field(default_factory=dict)  # field -> value; context_file -> {path: text}
    files: tuple[str, ...] = ()  # the pending step's context files, as named: the paths a context_file edit may name


@dataclass
class Release:
    action: str                # continue, step or skip
    output: str = ""
    result: Any = None
    actor: str | None = None

    def outcome(self) -> Outcome:
        return Outcome("completed", self.output, self.result)


class Debugger:
    """One run's breakpoints, its stepping and its holds."""

    def __init__(self, breakpoints: Iterable[Mapping[str, Any]] = (), *, resolved: Iterable[str] = (),
                 on_hold: Callable[[dict | None], Awaitable[None]] | None = None) -> None:
        self.breakpoints = [Breakpoint.of(b) for b in breakpoints]
        self.steps: dict[str, list[Breakpoint]] = {}
        self.rounds: dict[str, list[Breakpoint]] = {}
        self.judges: dict[str, list[Breakpoint]] = {}
        self.tools: dict[str, list[Breakpoint]] = {}
        self.conditions: list[Breakpoint] = []
        for bp in self.breakpoints:
            index = {"step": self.steps, "round": self.rounds, "judge": self.judges}.get(bp.kind)
            if index is not None:
                index.setdefault(bp.step, []).append(bp)
            elif bp.kind == "tool":
                self.tools.setdefault(bp.tool, []).append(bp)
            elif bp.kind == "condition":
                self.conditions.append(bp)
        self.resolved = set(resolved)
        self.stepping = False
        self.on_hold = on_hold
        self.holding: Pending | None = None
        self.instructions: dict[str, str] = {}  # a round's single step: its instructions, edited at the round's hold
        self.context_files: dict[str, dict[str, str]] = {}  # and its context files ({path: text}), edited there
        self._held_true: set[str] = set()  # condition breakpoints true at their last check, per place
        self._commands: asyncio.Queue[dict] | None = None
        self._lock: asyncio.Lock | None = None

    # -- the boundaries ------------------------------------------------------

    async def before_step(self, ctx: Any, step: dict, path: str, variables: dict,
                          inputs: Callable[[dict], Awaitable[Pending]],
                          cel: Callable[[], dict]) -> tuple[dict, Release | None]:
        """Before a step runs: hold when a breakpoint says so; the step to run (its instructions maybe edited)
        and the release (None: nothing held, or a plain continue). ``variables``: the scope's own (``iteration``,
        ``index``); ``cel``: the whole CEL scope, asked for only by condition breakpoints."""
        if self.instructions:  # edited at the hold before its round
            edited = self.instructions.pop(path, None)
            if edited is not None:
                step = {**step, "instructions": edited}
        if self.context_files:
            files = self.context_files.pop(path, None)
            if files is not None:
                step = {**step, EDITED_FILES: files}
        hit = self._step_hit(step, variables)
        if hit is None and self.conditions:
            hit = await self._condition_hit(path, cel())
        if hit is None and not self.stepping:
            return step, None
        bp = hit or _stepped()
        pending = await inputs(step)
        release = await self._hold(ctx, bp, f"{bp.id}@{path}", pending)
        if "instructions" in pending.edits:
            step = {**step, "instructions": pending.edits["instructions"]}
        if CONTEXT_FILE in pending.edits:
            step = {**step, EDITED_FILES: {**(step.get(EDITED_FILES) or {}), **pending.edits[CONTEXT_FILE]}}
        return step, release

    async def before_round(self, ctx: Any, loop_id: str, path: str, number: int, item: bool,
                           inputs: Callable[[], Awaitable[Pending]]) -> Release | None:
        """Before round (or item) ``number`` of the loop step ``loop_id`` at ``path``."""
        hit = None
        for bp in self.rounds.get(loop_id, ()):
            wanted = bp.item if item else bp.round
            if wanted is None or wanted == number:
                hit = bp
                break
        if hit is None and not self.stepping:
            return None
        bp = hit or _stepped()
        return await self._hold(ctx, bp, f"{bp.id}@{path}#{number}", await inputs())

    async def after_verdict(self, ctx: Any, loop_id: str, path: str, number: int, verdict: dict) -> None:
        """After the judge of round ``number`` answered, before the loop acts on it."""
        hit = None
        for bp in self.judges.get(loop_id, ()):
            if bp.done is None or bp.done is verdict.get("done"):
                hit = bp
                break
        if hit is None:
            return
        pending = Pending(where={"kind": "judge", "loop": path, "round": number},
                          inputs={"verdict": {k: verdict.get(k) for k in ("done", "reason", "content", "failed_open")}})
        await self._hold(ctx, hit, f"{hit.id}@{path}#{number}.judge", pending)

    async def before_tool(self, ctx: Any, step_path: str, name: str, call_id: str, arguments: Any) -> Release | None:
        """Before a tool call runs; a skip answers it with the text typed."""
        hits = self.tools.get(name)
        if not hits and not self.stepping:
            return None
        bp = hits[0] if hits else _stepped()
        pending = Pending(where={"kind": "tool", "step": step_path, "tool": name, "tool_call_id": call_id},
                          inputs={"tool": name, "arguments": arguments}, skippable=True)
        return await self._hold(ctx, bp, f"{bp.id}@{step_path}:{call_id}", pending)

    def _step_hit(self, step: dict, variables: dict) -> Breakpoint | None:
        candidates = self.steps.get(step["id"])
        if not candidates:
            return None
        for bp in candidates:
            if bp.round is not None and variables.get("iteration") != bp.round:
                continue
            if bp.item is not None and variables.get("index") != bp.item:
                continue
            return bp
        return None

    async def _condition_hit(self, path: str, variables: dict) -> Breakpoint | None:
        for bp in self.conditions:
            try:
                holds = await evaluate_async(bp.condition, variables) is True
            except CelError:
                holds = False  # a map key the run does not hold yet: not true
            if holds and bp.id not in self._held_true:
                self._held_true.add(bp.id)
                return bp
            if not holds:
                self._held_true.discard(bp.id)
        return None

    # -- holding ---------------------------------------------------------------

    def command(self, command: dict) -> None:
        """``{"action": edit|continue|step|skip, ...}`` from outside (the watcher), on the run's loop."""
        if self._commands is None:
            self._commands = asyncio.Queue()
        self._commands.put_nowait(command)

    async def _hold(self, ctx: Any, bp: Breakpoint, key: str, pending: Pending) -> Release | None:
        if key in self.resolved:
            return None
        if self._lock is None:
            self._lock = asyncio.Lock()
            control = ctx.control
            # Resume (the run's own button, or the API's) while held goes on as Continue would.
            control.on_change(lambda action: self.command({"action": "continue", "actor": control.actor})
                              if action == "resume" and self.holding is not None else None)
        async with self._lock:
            self.stepping = False
            if self._commands is None:
                self._commands = asyncio.Queue()
            while not self._commands.empty():  # commands sent to an earlier hold that is gone
                self._commands.get_nowait()
            emit = ctx.emitter.emit
            data = {"breakpoint": bp.as_dict(), "key": key, "where": pending.where, "inputs": pending.inputs,
                    "editable": list(pending.editable), "skippable": pending.skippable}
            await emit("breakpoint_hit", step_id=pending.where.get("step") or pending.where.get("loop"),
                       message=f"breakpoint {bp.id} hit: {_where_words(pending.where)}", data=data)
            self.holding = pending
            paused_here = ctx.control.state == "running"  # a pause someone asked for before stays theirs
            ctx.control.pause(quiet=True)
            if self.on_hold is not None:
                await self.on_hold(data)
            try:
                release = await self._wait(ctx, key, pending)
            finally:
                self.holding = None
                if paused_here:
                    ctx.control.resume(quiet=True)
            self.resolved.add(key)
            if self.on_hold is not None:
                await self.on_hold(None)
            if release.action == "step":
                self.stepping = True
            return release if release.action == "skip" else None

    async def _wait(self, ctx: Any, key: str, pending: Pending) -> Release:
        commands = self._commands if self._commands is not None else asyncio.Queue()
        self._commands = commands
        emit = ctx.emitter.emit
        while True:
            command = await commands.get()
            if command.get("key") not in (None, key):
                continue  # written for an earlier hold
            action, actor = command.get("action"), command.get("actor")
            who = {"actor": actor} if actor else {}
            if action == "edit":
                name, value, path = command.get("field"), command.get("value"), str(command.get("path") or "")
                if name not in pending.editable or pending.apply is None:
                    continue  # the API refuses it first; a stale one is dropped
                if name == CONTEXT_FILE:
                    if path not in pending.files:
                        continue
                    pending.edits[name] = {**pending.edits.get(name, {}), path: str(value)}
                else:
                    pending.edits[name] = value
                pending.inputs = await pending.apply(name, value, path)
                what = f"context file {path}" if name == CONTEXT_FILE else name
                await emit("debug_action", step_id=pending.where.get("step") or pending.where.get("loop"),
                           message=f"{what} edited" + (f" by {actor}" if actor else ""),
                           data={"action": "edit", "key": key, "field": name, "value": value, **who,
                                 **({"path": path} if name == CONTEXT_FILE else {}), "inputs": pending.inputs})
                if self.on_hold is not None:
                    await self.on_hold({"key": key, "where": pending.where, "inputs": pending.inputs,
                                        "editable": list(pending.editable), "skippable": pending.skippable,
                                        "edits": dict(pending.edits)})
                continue
            if action not in RELEASES or (action == "skip" and not pending.skippable):
                continue
            release = Release(action, str(command.get("output") or ""), command.get("result"), actor)
            await emit("debug_action", step_id=pending.where.get("step") or pending.where.get("loop"),
                       message=f"{action}" + (f" by {actor}" if actor else ""),
                       data={"action": action, "key": key, **who,
                             **({"output": release.output, "result": release.result} if action == "skip" else {})})
            return release


def _stepped() -> Breakpoint:
    return Breakpoint(id=STEPPING, kind="step")


def _where_words(where: dict) -> str:
    """In the words every page uses (docs/format.md "Numbering"): "before round 3 (write.2)"."""
    kind, loop, n = where.get("kind"), str(where.get("loop") or ""), where.get("round")
    if kind == "round":
        noun = "item" if where.get("item") else "round"
        return f"before {iteration_words(loop, n, noun)}" if isinstance(n, int) else f"before a {noun} of {loop}"
    if kind == "judge":
        return f"after the judge of {iteration_words(loop, n, 'round')}" if isinstance(n, int) else f"after a judge of {loop}"
    if kind == "tool":
        return f"before the {where.get('tool')} call of {where.get('step')}"
    return f"before step {where.get('step')}"


def resolved_keys(events: Iterable[Mapping[str, Any]]) -> set[str]:
    """The hits a run's events say were released: a resumed run does not hold at them again."""
    return {e["data"]["key"] for e in events
            if e.get("type") == "debug_action" and (e.get("data") or {}).get("action") in RELEASES}


__all__ = ["CONTEXT_FILE", "Breakpoint", "Debugger", "Pending", "Release", "resolved_keys"]

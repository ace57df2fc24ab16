"""A run's state at any step or iteration boundary, rebuilt from its stored events.

A *boundary* is an event that closes something: ``step_end`` or
``step_skipped`` (a step, at any depth, finished), ``iteration_end`` (a loop
iteration finished) and ``judge_verdict`` (a judged repeat-until round is only
done once its judge has spoken). :func:`fold` reads events in ``seq`` order and
returns the :class:`Checkpoint` after event N: what every finished step ended
with, each loop's finished iterations (outputs, results, statuses, verdicts
with what each judge spent), their outputs joined so far and the loop's end,
the budgets spent (tokens, cost, agent steps started), and the run's messaging
(undelivered messages, shared memory, the coordinator: :mod:`runtime.engine.mail_fold`). Nothing here asks a
model or reads the engine: the events carry it all (:mod:`runtime.contract`),
and the engine keeps the same state in :class:`runtime.engine.registry.RunState`,
which a test holds equal to this fold at every boundary of every example.

Rules the fold shares with the engine, so that both agree at every seq:

* ``iteration_start`` forgets what an earlier attempt of that iteration left
  (its inner steps, nested loops, its own entry): an iteration run again starts
  clean.
* A step retry (a ``message`` with ``data.retry``) forgets everything under the
  step, its loop record included: a retried loop restarts at iteration 0.
* Steps cancelled before they started leave no event, so no checkpoint has them.

Pure Python on plain dicts, whose shapes :mod:`runtime.engine.shapes` types (TypedDicts: plain dicts at run
time, so the fold pays nothing for them); :func:`runtime.durability.continuation.load_events` is the thin database
reader.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from runtime.engine.mail_fold import MAIL_EVENT_TYPES, MailFold
from runtime.engine.shapes import (
    JUDGE_STEP,
    AgentTurnData,
    IterationEndData,
    IterationEntry,
    IterationStartData,
    JudgeVerdictData,
    LoopEndData,
    LoopEntry,
    MessageData,
    RawEvent,
    Spent,
    StepEndData,
    StepEntry,
    StepSkippedData,
    StoredEvent,
    Tokens,
    VerdictEntry,
)

CUMULATIVE_SEPARATOR = "\n\n---\n\n"
BOUNDARY_TYPES = frozenset({"step_end", "step_skipped", "iteration_end", "judge_verdict"})


@dataclass(frozen=True)
class Boundary:
    """One place a run can be checkpointed: the event ``seq`` that closed it."""

    seq: int
    kind: str                    # "step", "iteration" or "verdict"
    path: str                    # the step's namespaced id, or the loop's
    iteration: int | None = None  # repeat-until iteration or forEach index (iteration and verdict kinds)


def boundary_of(event: StoredEvent | RawEvent) -> Boundary | None:
    """The boundary ``event`` closes, or None when it closes nothing."""
    kind = event.get("type")
    if kind not in BOUNDARY_TYPES:
        return None
    path = event.get("stepId") or ""
    if kind in ("step_end", "step_skipped"):
        return Boundary(event["seq"], "step", path)
    data = event.get("data") or {}
    key = data.get("iteration") if data.get("iteration") is not None else data.get("index")
    return Boundary(event["seq"], "iteration" if kind == "iteration_end" else "verdict", path, key)


def boundaries(events: Iterable[StoredEvent] | Iterable[RawEvent]) -> list[Boundary]:
    """Every boundary of a run, in order."""
    return [b for e in events if (b := boundary_of(e)) is not None]


def iteration_prefix(loop: str, key: int, kind: str) -> str:
    """The namespace of one iteration's steps: ``loop.N`` (repeat-until) or ``loop[N]`` (forEach)."""
    return f"{loop}[{key}]" if kind == "forEach" else f"{loop}.{key}"


_ITERATION_END = re.compile(r"(?:\.\d+|\[\d+\])(?=$|[.\[])")


def iteration_prefixes(path: str) -> list[str]:
    """Every iteration ``path`` lies in: ``a[2].b.3.c`` -> ``a[2]``, ``a[2].b.3`` (step ids never are numbers)."""
    return [path[:m.end()] for m in _ITERATION_END.finditer(path)]


def under(path: str, prefix: str) -> bool:
    """``path`` is ``prefix`` itself or lies inside it (``loop.1`` holds ``loop.1.a``, not ``loop.10``)."""
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def step_entry(status: str, content: str | None, result: Any, error: str | None, blocked: bool,
               tokens: Tokens | None = None, cost_usd: float | None = None) -> StepEntry:
    """A finished step in a checkpoint. ``error`` only for a failed step: the events say it only then."""
    entry: StepEntry = {"status": status, "content": content or "", "result": result, "blocked": blocked}
    if status == "failed":
        entry["error"] = error
    if tokens is not None:
        entry["tokens"] = tokens.copy()
    if cost_usd is not None:
        entry["cost_usd"] = cost_usd
    return entry


def _spent(entry: VerdictEntry, tokens: Tokens | None, cost_usd: float | None) -> VerdictEntry:
    """``tokens`` and ``cost_usd`` on an entry, each only when its event carried it."""
    if tokens is not None:
        entry["tokens"] = tokens.copy()
    if cost_usd is not None:
        entry["cost_usd"] = cost_usd
    return entry


def iteration_entry(kind: str, key: int, status: str, content: str | None, result: Any, error: str | None,
                    item: Any = None) -> IterationEntry:
    entry: IterationEntry
    if kind == "forEach":
        entry = {"index": key, "status": status, "content": content or "", "result": result, "item": item}
    else:
        entry = {"iteration": key, "status": status, "content": content or "", "result": result}
    if error:
        entry["error"] = error
    return entry


def verdict_entry(verdict: Mapping[str, Any], tokens: Tokens | None = None) -> VerdictEntry:
    """What a checkpoint keeps of a judge's verdict (the ``judge_verdict`` data without its timing, with what
    the judge spent: the event's ``tokens`` and its data's ``cost_usd``). ``verdict``: that data
    (:class:`~runtime.engine.shapes.JudgeVerdictData`), or the engine's verdict with its cost, about to be it."""
    out: VerdictEntry = {"done": verdict.get("done"), "reason": verdict.get("reason"),
                         "failed_open": bool(verdict.get("failed_open")), "content": verdict.get("content")}
    if verdict.get("error"):
        out["error"] = verdict["error"]
    if "result" in verdict and verdict["result"] is not None:
        out["result"] = verdict["result"]
    return _spent(out, tokens, verdict.get("cost_usd"))


def cumulative(iterations: list[IterationEntry]) -> str:
    """The loop's output so far in cumulative mode: completed iterations' outputs in order."""
    return CUMULATIVE_SEPARATOR.join(i["content"] for i in iterations if i["status"] == "completed")


def loop_entry(kind: str, iterations: dict[int, IterationEntry], end: dict[str, Any] | None) -> LoopEntry:
    ordered = [iterations[k] for k in sorted(iterations)]
    return {"kind": kind, "iterations": ordered, "cumulative": cumulative(ordered), "end": end}


@dataclass
class Checkpoint:
    """A run's state after event ``seq``: plain JSON-able data.

    ``steps``: namespaced step id -> ``{status, content, result, blocked, error?, tokens?, cost_usd?}``.
    ``loops``: loop step path -> ``{kind, iterations: [...], cumulative, end}``; each iteration
    ``{iteration|index, item?, status, content, result, error?, verdict?}`` (the verdict with what the judge
    spent: ``tokens?``, ``cost_usd?``); ``cumulative`` joins the completed iterations' outputs
    (what a page shows while the loop runs: the loop's own output is its ``end.content``); ``end`` is the
    ``loop_end`` data (``rounds_completed``, ``broke_early``, ``break_reason``, ``content`` ...) or None.
    ``spent``: ``{tokens: {prompt, completion, total}, cost_usd, steps_started, unpriced_models}``.
    ``mail``: undelivered messages, shared memory and the coordinator's state (:mod:`runtime.engine.mail_fold`);
    empty, and left out of the JSON, in a run that has none of them.
    """

    seq: int
    steps: dict[str, StepEntry] = field(default_factory=dict)
    loops: dict[str, LoopEntry] = field(default_factory=dict)
    spent: Spent = field(default_factory=Spent)
    mail: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out = {"seq": self.seq, "steps": self.steps, "loops": self.loops, "spent": self.spent}
        if self.mail:
            out["mail"] = self.mail
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Checkpoint:
        """A checkpoint from its JSON; ``ValueError`` saying what is wrong when it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("seq"), int) or data["seq"] < 0:
            raise ValueError("a checkpoint is an object with a seq (a whole number of at least 0)")
        steps, loops, spent = data.get("steps") or {}, data.get("loops") or {}, data.get("spent") or {}
        if not isinstance(steps, dict) or not all(isinstance(e, dict) and isinstance(e.get("status"), str)
                                                  for e in steps.values()):
            raise ValueError("checkpoint steps: each step id maps to an object with a status")
        for path, loop in loops.items() if isinstance(loops, dict) else [("", None)]:
            if not isinstance(loop, dict) or loop.get("kind") not in ("forEach", "repeat-until") \
                    or not isinstance(loop.get("iterations"), list):
                raise ValueError(f"checkpoint loop {path!r}: needs a kind (forEach or repeat-until) and iterations")
            key = "index" if loop["kind"] == "forEach" else "iteration"
            if not all(isinstance(i, dict) and isinstance(i.get(key), int) and isinstance(i.get("status"), str)
                       for i in loop["iterations"]):
                raise ValueError(f"checkpoint loop {path!r}: each iteration needs its {key} and a status")
        if not isinstance(spent, dict):
            raise ValueError("checkpoint spent: an object (tokens, cost_usd, steps_started)")
        mail = data.get("mail") or {}
        if not isinstance(mail, dict) or not all(isinstance(mail.get(k) or {}, dict) for k in ("router", "memory", "coordinator")):
            raise ValueError("checkpoint mail: an object whose router, memory and coordinator are objects")
        # Checked as far as a fold reads it: from here on it is typed as what it claims to be (the mail's parts are
        # checked again where they are restored: runtime.messaging's snapshots name the field at fault).
        return cls(seq=data["seq"], steps=dict(steps), loops=dict(loops), spent=cast(Spent, dict(spent)), mail=dict(mail))


def spent_entry(prompt: int, completion: int, cost_usd: float, steps_started: int, unpriced: Iterable[str]) -> Spent:
    return {"tokens": {"prompt": prompt, "completion": completion, "total": prompt + completion},
            "cost_usd": cost_usd, "steps_started": steps_started, "unpriced_models": sorted(unpriced)}


class Fold:
    """The fold's running state; feed events in ``seq`` order with :meth:`apply`, read with :meth:`checkpoint`.

    Folding in one pass and folding in pieces give the same checkpoint: the state is
    only ever what the events so far said.
    """

    def __init__(self) -> None:
        self.seq = 0
        self.steps: dict[str, StepEntry] = {}
        # loop path -> (kind, its finished iterations by number or index, its end: the loop_end data)
        self.loops: dict[str, tuple[str, dict[int, IterationEntry], dict[str, Any] | None]] = {}
        self.prompt = 0
        self.completion = 0
        self.cost_usd = 0.0
        self.steps_started = 0
        self.unpriced: set[str] = set()
        self.started: set[str] = set()  # iteration prefixes seen starting
        self.mail = MailFold()

    @classmethod
    def starting_from(cls, checkpoint: Checkpoint) -> Fold:
        """The fold of a run that started from ``checkpoint``: feed it that run's own events (``seq`` from 1)."""
        state = cls()
        for path, entry in checkpoint.steps.items():
            state.steps[path] = _copy_step(entry)
            state.started.update(iteration_prefixes(path))
        for path, loop in checkpoint.loops.items():
            iterations: dict[int, IterationEntry] = {}
            for entry in loop["iterations"]:
                key = entry["index"] if loop["kind"] == "forEach" else entry["iteration"]
                iterations[key] = _copy_iteration(entry)
                state.started.add(iteration_prefix(path, key, loop["kind"]))
            end = loop.get("end")
            state.loops[path] = (loop["kind"], iterations, dict(end) if end else None)
        spent: Spent = checkpoint.spent or {}
        tokens: Tokens | dict[str, int] = spent.get("tokens") or {}
        state.prompt, state.completion = int(tokens.get("prompt") or 0), int(tokens.get("completion") or 0)
        state.cost_usd = float(spent.get("cost_usd") or 0.0)
        state.steps_started = int(spent.get("steps_started") or 0)
        state.unpriced = set(spent.get("unpriced_models") or [])
        state.mail = MailFold.starting_from(checkpoint.mail)
        return state

    def apply(self, event: StoredEvent) -> None:
        seq = event.get("seq")
        if not isinstance(seq, int) or seq <= self.seq:
            raise ValueError(f"events must come in seq order: {seq!r} after {self.seq}")
        self.seq = seq
        kind = event.get("type")
        if kind in MAIL_EVENT_TYPES:
            self.mail.apply(event)
        data: Any = event.get("data") or {}  # its shape is its type's: each branch names it (no cast, no cost)
        path = event.get("stepId") or ""
        if kind == "step_end":
            ended: StepEndData = data
            reason = ended.get("reason")
            self.steps[path] = step_entry(ended.get("status", ""), ended.get("content"), ended.get("result"),
                                          event.get("error"), reason in ("dependency_failed", "dependency_cancelled"),
                                          event.get("tokens"), ended.get("cost_usd"))
        elif kind == "step_skipped":
            skipped: StepSkippedData = data
            self.steps[path] = step_entry("skipped", "", None, None, skipped.get("reason") == "dependency_failed")
        elif kind == "agent_turn":
            turn: AgentTurnData = data
            if turn.get("phase") == "response":
                tokens: Tokens | dict[str, int] = event.get("tokens") or {}
                self.prompt += int(tokens.get("prompt") or 0)
                self.completion += int(tokens.get("completion") or 0)
                unpriced, cost = turn.get("unpriced_model"), turn.get("cost_usd")
                if unpriced:
                    self.unpriced.add(unpriced)
                elif cost is not None:
                    self.cost_usd += cost
            elif turn.get("phase") == "request" and turn.get("turn") == 1 and path \
                    and (event.get("where") or {}).get("inner") != JUDGE_STEP:  # the coordinator's have no step
                self.steps_started += 1
        elif kind == "iteration_start":
            loop_kind, key = _iteration_key(data)
            prefix = iteration_prefix(path, key, loop_kind)
            if prefix in self.started:  # a first attempt has nothing to forget: no scan of the whole run
                self.forget(prefix)
            self.started.add(prefix)
            if path in self.loops:
                self.loops[path][1].pop(key, None)
        elif kind == "iteration_end":
            done: IterationEndData = data
            loop_kind, key = _iteration_key(done)
            record = self.loops.setdefault(path, (loop_kind, {}, None))
            record[1][key] = iteration_entry(loop_kind, key, done.get("status", ""), done.get("content"),
                                             done.get("result"), done.get("error"), done.get("item"))
        elif kind == "judge_verdict":
            verdict: JudgeVerdictData = data
            entry = self.loops.get(path, ("repeat-until", {}, None))[1].get(int(verdict.get("iteration") or 0))
            if entry is not None:
                entry["verdict"] = verdict_entry(verdict, event.get("tokens"))
        elif kind == "loop_end":
            end: LoopEndData = data
            _, iterations, _ = self.loops.get(path, ("", {}, None))
            self.loops[path] = (end.get("loop_type") or "repeat-until", iterations, dict(end))
        elif kind == "message":
            message: MessageData = data
            if message.get("retry") and path:
                self.forget(path)

    def forget(self, prefix: str) -> None:
        """Drop what lies at or under ``prefix``: an iteration or a step about to run again."""
        for key in [p for p in self.steps if under(p, prefix)]:
            del self.steps[key]
        for key in [p for p in self.loops if under(p, prefix)]:
            del self.loops[key]

    def checkpoint(self) -> Checkpoint:
        return Checkpoint(
            seq=self.seq,
            steps={p: _copy_step(e) for p, e in self.steps.items()},
            loops={p: loop_entry(k, {i: _copy_iteration(e) for i, e in its.items()}, dict(end) if end else None)
                   for p, (k, its, end) in self.loops.items()},
            spent=spent_entry(self.prompt, self.completion, self.cost_usd, self.steps_started, self.unpriced),
            mail=self.mail.state())


def _copy_step(entry: StepEntry) -> StepEntry:
    out = entry.copy()
    if "tokens" in out:
        out["tokens"] = out["tokens"].copy()
    return out


def _copy_iteration(entry: IterationEntry) -> IterationEntry:
    out = entry.copy()
    if "verdict" in out:
        out["verdict"] = out["verdict"].copy()
    return out


def _iteration_key(data: IterationStartData | IterationEndData) -> tuple[str, int]:
    iteration = data.get("iteration")
    if iteration is not None:
        return "repeat-until", int(iteration)
    return "forEach", int(data.get("index") or 0)


def fold(events: Iterable[StoredEvent] | Iterable[RawEvent], upto: int | None = None,
         start: Checkpoint | None = None) -> Checkpoint:
    """The checkpoint after event ``upto`` (default: the last event), from events in ``seq`` order;
    ``start``: the checkpoint the run started from, when it did."""
    state = Fold.starting_from(start) if start is not None else Fold()
    for event in cast("Iterable[StoredEvent]", events):  # where plain dicts enter the fold: read as events
        if upto is not None and event["seq"] > upto:
            break
        state.apply(event)
    return state.checkpoint()

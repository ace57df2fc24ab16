"""The run's state in one place: every finished step, every loop's iterations, the budgets spent.

:class:`RunState` lives on the run context (``ctx.state``). The scheduler reads
and writes a scope's outcomes through :class:`ScopeOutcomes`, a view keyed by
the scope's own step ids; loops record each finished iteration, the judge's
verdict and the loop's end; the agent runner records tokens, cost and agent
steps started.

Every finished step keeps what it spent (``usage``: an agent step its
replies, a loop or include step its whole subtree), so a loop or include sums
its own steps' when it ends (:meth:`RunState.spent_by`). A judge is no step: what
it spends is *tallied* while it runs (:meth:`RunState.tally`: every
``agent_turn`` response at or under the tallied path adds its tokens and cost as
the event is stamped, :meth:`RunState.observe`) and kept on its verdict.

Each record is made right before the event that announces it is emitted,
with no ``await`` between, so the state at an event's ``seq`` is the state
:func:`runtime.engine.checkpoints.fold` rebuilds from the events up to it.
:meth:`RunState.snapshot` gives that state as a :class:`~runtime.engine.checkpoints.Checkpoint`, its messaging
folded from the events as they are stamped (:mod:`runtime.engine.mail_fold` says why);
``on_boundary`` (tests, tools) gets one at every boundary as it is emitted.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from runtime.engine.checkpoints import (
    Checkpoint,
    boundary_of,
    iteration_entry,
    iteration_prefix,
    iteration_prefixes,
    loop_entry,
    spent_entry,
    step_entry,
    under,
    verdict_entry,
)
from runtime.engine.mail_fold import MAIL_EVENT_TYPES, MailFold
from runtime.engine.shapes import IterationEntry, Spent, StepEntry, Tokens, VerdictEntry
from runtime.engine.state import LoopMeta, Outcome
from runtime.providers import Usage


class LoopState:
    """One loop's record: finished iterations by number (or item index), its end once it ended."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.iterations: dict[int, IterationEntry] = {}
        self.meta: LoopMeta | None = None
        self.end: dict[str, Any] | None = None  # the loop_end data


class RunState:
    def __init__(self) -> None:
        self.outcomes: dict[str, Outcome] = {}      # namespaced step id -> outcome
        self.order: dict[str, int] = {}             # namespaced step id -> when it finished (1, 2, ...)
        self.started: set[str] = set()              # iteration prefixes run at least once
        self._finished = 0
        self.usage: dict[str, tuple[Tokens | None, float | None]] = {}  # finished steps: tokens and cost
        self.quiet: set[str] = set()                # outcomes no event announced (cancelled before starting)
        self.loops: dict[str, LoopState] = {}
        self.tokens = Usage()
        self.cost_usd = 0.0
        self.steps_started = 0
        self.unpriced_models: set[str] = set()
        self.on_boundary: Callable[[Checkpoint], None] | None = None
        self.tallies: dict[str, list[Any]] = {}     # path -> [prompt, completion, cost or None] (see tally)
        self.mail = MailFold()                      # the messaging events folded as stamped (runtime.engine.mail_fold)

    # -- steps -------------------------------------------------------------------
    def finish_step(self, path: str, outcome: Outcome, tokens: Tokens | None = None, cost_usd: float | None = None) -> None:
        """Record a step's end; call it right before its ``step_end`` / ``step_skipped``."""
        self.outcomes[path] = outcome
        self._finished += 1
        self.order[path] = self._finished
        self.quiet.discard(path)
        if tokens is not None or cost_usd is not None:
            self.usage[path] = (tokens, cost_usd)
        else:
            self.usage.pop(path, None)

    def note_step(self, path: str, outcome: Outcome, replace: bool = False) -> None:
        """An outcome the scheduler needs that no event announces: kept out of checkpoints."""
        if replace or path not in self.outcomes:
            self.outcomes[path] = outcome
            self._finished += 1
            self.order[path] = self._finished
            self.quiet.add(path)

    def scope(self, ns: Callable[[str], str], ids: list[str]) -> ScopeOutcomes:
        return ScopeOutcomes(self, ns, ids)

    def forget(self, prefix: str) -> None:
        """Drop what lies at or under ``prefix``: an iteration or a step about to run again."""
        for key in [p for p in self.outcomes if under(p, prefix)]:
            del self.outcomes[key]
            self.order.pop(key, None)
            self.usage.pop(key, None)
            self.quiet.discard(key)
        for key in [p for p in self.loops if under(p, prefix)]:
            del self.loops[key]

    # -- loops ---------------------------------------------------------------------
    def loop(self, path: str, kind: str) -> LoopState:
        found = self.loops.get(path)
        if found is None:
            found = self.loops[path] = LoopState(kind)
        return found

    def start_iteration(self, path: str, kind: str, key: int, prefix: str) -> None:
        """Call right before ``iteration_start``: an iteration run again starts clean."""
        if prefix in self.started:  # a first attempt has nothing to forget: no scan of the whole run
            self.forget(prefix)
        self.started.add(prefix)
        if path in self.loops:
            self.loops[path].iterations.pop(key, None)

    def finish_iteration(self, path: str, kind: str, key: int, outcome: Outcome, item: Any = None) -> None:
        """Record a finished iteration; call it right before its ``iteration_end``."""
        self.loop(path, kind).iterations[key] = iteration_entry(kind, key, outcome.status, outcome.content,
                                                                outcome.result, outcome.error, item)

    def judged(self, path: str, iteration: int, verdict: Mapping[str, Any], tokens: Tokens | None = None) -> None:
        """Record the judge's verdict on an iteration (``verdict`` the ``judge_verdict`` data, ``tokens``
        its envelope's); call it right before ``judge_verdict``."""
        entry = self.loop(path, "repeat-until").iterations.get(iteration)
        if entry is not None:
            entry["verdict"] = verdict_entry(verdict, tokens)

    def finish_loop(self, path: str, kind: str, meta: LoopMeta, content: str) -> dict[str, Any]:
        """Record the loop's end; returns the ``loop_end`` data to emit right after."""
        record = self.loop(path, kind)
        record.meta = meta
        record.end = {**meta.as_dict(), "content": content, "loop_type": kind}
        return dict(record.end)

    def loop_meta(self) -> dict[str, dict[str, Any]]:
        return {p: r.meta.as_dict() for p, r in self.loops.items() if r.meta is not None}

    # -- budgets ---------------------------------------------------------------------
    def spend(self, usage: Usage, cost: float | None, model: str) -> None:
        self.tokens.prompt += usage.prompt
        self.tokens.completion += usage.completion
        if cost is None:
            self.unpriced_models.add(model)
        else:
            self.cost_usd += cost

    # -- what was spent -----------------------------------------------------------------
    def spent_by(self, paths: Iterable[str], verdicts: Iterable[VerdictEntry] = ()) -> dict[str, Any]:
        """``{"tokens": {prompt, completion, total}, "cost_usd"}`` the finished steps ``paths`` (those of them
        that recorded it) and the judges of ``verdicts`` spent; the cost None when nothing had a price."""
        tally: list[Any] = [0, 0, None]
        usage = self.usage
        for path in paths:
            found = usage.get(path)
            if found is not None:
                _add(tally, found[0], found[1])
        for verdict in verdicts:
            _add(tally, verdict.get("tokens"), verdict.get("cost_usd"))
        return {"tokens": {"prompt": tally[0], "completion": tally[1], "total": tally[0] + tally[1]},
                "cost_usd": tally[2]}

    def spent_within(self, path: str) -> dict[str, Any]:
        """What the finished steps directly under ``path`` spent (an include's, when it did not finish)."""
        head = path + "."
        return self.spent_by([p for p in self.usage if p.startswith(head) and "." not in p[len(head):]
                              and "[" not in p[len(head):]])

    def tally(self, path: str) -> None:
        """Start counting what is spent at or under ``path`` (again from zero when it was counted)."""
        self.tallies[path] = [0, 0, None]

    def untally(self, path: str) -> tuple[Tokens | None, float | None]:
        """Stop counting for ``path``; (tokens ``{prompt, completion, total}``, cost or None when no reply
        had a price); (None, None) when it was not counted."""
        found = self.tallies.pop(path, None)
        if found is None:
            return None, None
        return {"prompt": found[0], "completion": found[1], "total": found[0] + found[1]}, found[2]

    def _count(self, event: dict[str, Any]) -> None:
        """An ``agent_turn`` response's tokens and cost to every open tally at or above its step (hot: once a reply)."""
        path = event.get("stepId")
        if not path:
            return
        tokens = event["tokens"]
        prompt, completion = tokens.get("prompt") or 0, tokens.get("completion") or 0
        cost = (event.get("data") or {}).get("cost_usd")
        tallies = self.tallies
        end = len(path)
        while end > 0:  # the path itself, then every step or iteration it lies in
            found = tallies.get(path[:end])
            if found is not None:
                found[0] += prompt
                found[1] += completion
                if cost is not None:
                    found[2] = (found[2] or 0.0) + cost
            dot, bracket = path.rfind(".", 0, end), path.rfind("[", 0, end)
            end = dot if dot > bracket else bracket

    # -- checkpoints -------------------------------------------------------------------
    def seed(self, checkpoint: Checkpoint) -> None:
        """Start from ``checkpoint``: its steps count as finished and its loops' rounds as done."""
        for path, entry in checkpoint.steps.items():
            self.finish_step(path, Outcome(entry["status"], entry.get("content") or "", entry.get("result"),
                                           entry.get("error"), bool(entry.get("blocked"))),
                             entry.get("tokens"), entry.get("cost_usd"))
            self.started.update(iteration_prefixes(path))
        for path, loop in checkpoint.loops.items():
            record = self.loop(path, loop["kind"])
            for entry in loop["iterations"]:
                key = entry["index"] if loop["kind"] == "forEach" else entry["iteration"]
                record.iterations[key] = _copy(entry)
                self.started.add(iteration_prefix(path, key, loop["kind"]))
            end = loop.get("end")
            if end:
                record.end = dict(end)
                record.meta = LoopMeta(record.end["rounds_completed"], bool(record.end.get("broke_early")),
                                       record.end.get("break_reason") or "", record.end.get("stop_rule") or "")
        spent: Spent = checkpoint.spent or {}
        tokens: Tokens | dict[str, int] = spent.get("tokens") or {}
        self.tokens.prompt += int(tokens.get("prompt") or 0)
        self.tokens.completion += int(tokens.get("completion") or 0)
        self.cost_usd += float(spent.get("cost_usd") or 0.0)
        self.steps_started += int(spent.get("steps_started") or 0)
        self.unpriced_models.update(spent.get("unpriced_models") or [])
        self.mail = MailFold.starting_from(checkpoint.mail)

    def snapshot(self, seq: int) -> Checkpoint:
        steps: dict[str, StepEntry] = {}
        for path, out in self.outcomes.items():
            if path in self.quiet:
                continue
            tokens, cost = self.usage.get(path, (None, None))
            steps[path] = step_entry(out.status, out.content, out.result, out.error, out.blocked, tokens, cost)
        loops = {p: loop_entry(r.kind, {k: _copy(e) for k, e in r.iterations.items()}, dict(r.end) if r.end else None)
                 for p, r in self.loops.items()}
        spent = spent_entry(self.tokens.prompt, self.tokens.completion, self.cost_usd, self.steps_started,
                            self.unpriced_models)
        return Checkpoint(seq=seq, steps=steps, loops=loops, spent=spent, mail=self.mail.state())

    def observe(self, event: dict[str, Any]) -> None:
        """Called as each event is stamped: a reply's spend to the open tallies it lies under; a checkpoint
        for ``on_boundary`` when the event closes a boundary."""
        if self.tallies and event["type"] == "agent_turn" and "tokens" in event:
            self._count(event)
        if self.on_boundary is not None and event["type"] in MAIL_EVENT_TYPES:
            # Only a taker of the engine's own checkpoints needs their messaging part; a resume or a fork folds the
            # stored events, so a run no one watches this way pays nothing for it on its hot path.
            self.mail.apply(event)
        if self.on_boundary is not None and boundary_of(event) is not None:
            self.on_boundary(self.snapshot(event["seq"]))


def _add(tally: list[Any], tokens: Tokens | None, cost_usd: float | None) -> None:
    if tokens:
        tally[0] += int(tokens.get("prompt") or 0)
        tally[1] += int(tokens.get("completion") or 0)
    if cost_usd is not None:
        tally[2] = (tally[2] or 0.0) + cost_usd


def _copy(entry: IterationEntry) -> IterationEntry:
    out = entry.copy()
    if "verdict" in out:
        out["verdict"] = out["verdict"].copy()
    return out


class ScopeOutcomes(Mapping[str, Outcome]):
    """One scope's outcomes by its own step ids, kept in the run's :class:`RunState`."""

    def __init__(self, state: RunState, ns: Callable[[str], str], ids: list[str]) -> None:
        self._state = state
        self._ns = ns
        self._local = {ns(i): i for i in ids}

    def __getitem__(self, step_id: str) -> Outcome:
        return self._state.outcomes[self._ns(step_id)]

    def __iter__(self) -> Iterator[str]:
        # The order they finished in, as a plain dict filled by the scheduler would give.
        outcomes, order = self._state.outcomes, self._state.order
        return iter([i for _, i in sorted((order[p], i) for p, i in self._local.items() if p in outcomes)])

    def __len__(self) -> int:
        outcomes = self._state.outcomes
        return sum(1 for p in self._local if p in outcomes)

    def __contains__(self, step_id: object) -> bool:
        return isinstance(step_id, str) and self._ns(step_id) in self._state.outcomes

    def finish(self, step_id: str, outcome: Outcome) -> Outcome:
        self._state.finish_step(self._ns(step_id), outcome)
        return outcome

    def note(self, step_id: str, outcome: Outcome, replace: bool = False) -> None:
        self._state.note_step(self._ns(step_id), outcome, replace)


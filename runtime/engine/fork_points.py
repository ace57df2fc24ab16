"""Where a fork of a run starts: which of the parent's events it inherits, and the state it starts from.

Pure Python on the parent's events (plain dicts in ``seq`` order, superseded ones left out). The
rule is one cut, "the fork inherits what happened before the point began":

* a **step** ``S`` (no iteration): every event before ``S``'s first event. The fork starts from the
  state then: steps finished before ``S`` started are inherited (its dependencies among them); ``S``,
  everything after it and anything still running at that moment run again.
* **round k** of a repeat-until loop: every event before round k's ``iteration_start`` (its last
  attempt), so rounds 0..k-1 with their verdicts are inherited and the loop goes on at round k.
* **item k** of a forEach loop: every event before the loop ended, except item k's own. The other
  items are inherited as the parent finished them; item k, the loop's end and whatever waited for
  the loop run again ("a fork of a forEach item re-runs only that item").
* a step **inside an iteration** (``loop.3.review``, ``each[2].draft``) forks from the outermost
  iteration it lies in: an iteration the engine runs again always runs again whole.

A run that itself started from a checkpoint (a fork, or a resumed run) is folded from that start
for the events after it, so that its edits (an edited item or previous output) carry on to its forks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from runtime.engine.checkpoints import CUMULATIVE_SEPARATOR, Checkpoint, fold, iteration_prefixes, under
from runtime.numbering import iteration_words, ordinal

PENDING_INPUT = "pending"  # a forEach item entry holding only an edited item (runtime.engine.loops reads it)


class ForkPointError(ValueError):
    """The point asked for is not in the parent; ``field`` names the request field at fault."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name


@dataclass
class ForkPoint:
    step: str                   # the loop (round and item forks) or the step the fork starts at
    iteration: int | None       # the round or item number; None for a step
    kind: str                   # "step", "round" or "item"
    seq: int                    # the parent's last event before the point: the fork numbers its own after it
    events: list[dict] = field(default_factory=list)  # the parent's events the fork inherits
    checkpoint: Checkpoint = field(default_factory=lambda: Checkpoint(seq=0))
    texts: list[str] | None = None  # the inherited events' stored texts, when the caller has them

    def as_dict(self) -> dict:
        out: dict = {"step": self.step, "kind": self.kind, "seq": self.seq}
        if self.iteration is not None:
            out["iteration"] = self.iteration
        return out


_OUTER = re.compile(r"^(?P<loop>.+?)(?:\.(?P<round>\d+)|\[(?P<item>\d+)\])$")


def resolve(step: str, iteration: int | None) -> tuple[str, int | None]:
    """A step inside an iteration becomes that outermost iteration: (loop path, number)."""
    prefixes = iteration_prefixes(step)
    if not prefixes:
        return step, iteration
    found = _OUTER.match(prefixes[0])
    if found is None:  # iteration_prefixes only returns ids that end in .N or [N]
        return step, iteration
    return found["loop"], int(found["round"] if found["round"] is not None else found["item"])


def locate(events: list[dict], step: str, iteration: int | None = None, *, start: Checkpoint | None = None,
           start_seq: int = 0) -> ForkPoint:
    """The fork point ``step`` (and ``iteration``) names in a run with these ``events``.

    ``start``/``start_seq``: the checkpoint the run itself started from, when it did. Raises
    :class:`ForkPointError` when the point is not in the run."""
    step, iteration = resolve(step, iteration)
    if iteration is None:
        first = next((e for e in events if under(e.get("stepId") or "", step)), None)
        if first is None:
            raise ForkPointError("step", f"step {step!r} never ran in this run")
        seq = first["seq"] - 1
        inherited = [e for e in events if e["seq"] <= seq]
        return ForkPoint(step, None, "step", seq, inherited, state_at(inherited, seq, start, start_seq))
    starts = [e for e in events if e.get("type") == "iteration_start" and e.get("stepId") == step]
    if not starts:
        raise ForkPointError("iteration", f"step {step!r} never ran a loop iteration in this run "
                                          "(fork from the step itself: leave out `iteration`)")
    if (starts[0].get("data") or {}).get("iteration") is not None:
        return _round(events, step, iteration, starts, start, start_seq)
    return _item(events, step, iteration, starts, start, start_seq)


def _round(events: list[dict], loop: str, k: int, starts: list[dict], start: Checkpoint | None, start_seq: int) -> ForkPoint:
    mine = [e for e in starts if (e.get("data") or {}).get("iteration") == k]
    if not mine:
        ran = sorted({n for e in starts if isinstance(n := (e.get("data") or {}).get("iteration"), int)})
        raise ForkPointError("iteration", f"loop {loop!r} never ran iteration {k} (round {ordinal(k)}): it ran iterations {_span(ran, 'round')}")
    seq = mine[-1]["seq"] - 1
    inherited = [e for e in events if e["seq"] <= seq]
    return ForkPoint(loop, k, "round", seq, inherited, state_at(inherited, seq, start, start_seq))


def _item(events: list[dict], loop: str, k: int, starts: list[dict], start: Checkpoint | None, start_seq: int) -> ForkPoint:
    if not any((e.get("data") or {}).get("index") == k for e in starts):
        ran = sorted({n for e in starts if isinstance(n := (e.get("data") or {}).get("index"), int)})
        raise ForkPointError("iteration", f"loop {loop!r} never ran iteration {k} (item {ordinal(k)}): it ran iterations {_span(ran, 'item')}")
    ends = [e["seq"] for e in events if e.get("type") == "loop_end" and e.get("stepId") == loop]
    last = max((e["seq"] for e in events if e.get("type") != "workflow_end"), default=0)
    seq = ends[-1] - 1 if ends else last
    prefix = f"{loop}[{k}]"

    def of_item(event: dict) -> bool:
        path = event.get("stepId") or ""
        return under(path, prefix) or (path == loop and (event.get("data") or {}).get("index") == k)

    inherited = [e for e in events if e["seq"] <= seq and not of_item(e)]
    checkpoint = state_at(inherited, seq, start, start_seq)
    _drop_item(checkpoint, loop, k)  # when item k came from the run's own start, not from its events
    return ForkPoint(loop, k, "item", seq, inherited, checkpoint)


def state_at(inherited: list[dict], seq: int, start: Checkpoint | None, start_seq: int) -> Checkpoint:
    """The state after event ``seq`` of a run with these events, folded from the checkpoint it started from
    (``start`` after ``start_seq``) when it did: its own edits (an item, a previous output) are kept."""
    checkpoint = (fold([e for e in inherited if e["seq"] > start_seq], start=start) if start is not None and seq >= start_seq
                  else fold(inherited))
    checkpoint.seq = seq
    return checkpoint


def _drop_item(checkpoint: Checkpoint, loop: str, k: int) -> None:
    prefix = f"{loop}[{k}]"
    for path in [p for p in checkpoint.steps if under(p, prefix) or p == loop]:
        del checkpoint.steps[path]
    for path in [p for p in checkpoint.loops if under(p, prefix)]:
        del checkpoint.loops[path]
    record = checkpoint.loops.get(loop)
    if record is not None:
        record["iterations"] = [i for i in record["iterations"] if i.get("index") != k]
        record["cumulative"] = _cumulative(record["iterations"])
        record["end"] = None


def _cumulative(iterations: list[dict]) -> str:
    return CUMULATIVE_SEPARATOR.join(i.get("content") or "" for i in iterations if i.get("status") == "completed")


def _span(numbers: list[int], noun: str) -> str:
    """Iterations as the field counts them (from 0), then as pages do (from 1): "0 to 9 (rounds 1 to 10)"."""
    if not numbers:
        return "none"
    if len(numbers) == 1:
        return f"{numbers[0]} ({noun} {ordinal(numbers[0])})"
    return f"{numbers[0]} to {numbers[-1]} ({noun}s {ordinal(numbers[0])} to {ordinal(numbers[-1])})"


# ---------------------------------------------------------------- edits to the input

def with_input(point: ForkPoint, given: dict | None) -> Checkpoint:
    """The point's checkpoint with the iteration's input edited: ``{"item": ...}`` for a forEach item,
    ``{"previous_output": "..."}`` for a round (what the round sees as the one before it)."""
    checkpoint = point.checkpoint
    if not given:
        return checkpoint
    if not isinstance(given, dict):
        raise ForkPointError("input", "`input` must be an object: {\"item\": ...} or {\"previous_output\": \"...\"}")
    if point.kind == "step":
        raise ForkPointError("input", "only a loop iteration takes an input; this fork starts at a step")
    allowed = "item" if point.kind == "item" else "previous_output"
    unknown = [k for k in given if k != allowed]
    if unknown:
        raise ForkPointError("input", f"unknown field {unknown[0]!r}: a {'forEach item' if point.kind == 'item' else 'round'} "
                                      f"takes only {allowed!r}")
    if allowed not in given:
        return checkpoint
    if point.iteration is None:  # an item's or a round's point has its number
        raise RuntimeError(f"fork point {point.kind} at {point.step} has no iteration")
    if point.kind == "item":
        record = checkpoint.loops.setdefault(point.step, {"kind": "forEach", "iterations": [], "cumulative": "", "end": None})
        record["iterations"] = [i for i in record["iterations"] if i.get("index") != point.iteration] + [
            {"index": point.iteration, "status": PENDING_INPUT, "content": "", "result": None, "item": given["item"]}]
        return checkpoint
    text = given["previous_output"]
    if not isinstance(text, str):
        raise ForkPointError("input", "`input.previous_output` must be text")
    if point.iteration == 0:
        raise ForkPointError("input", "the first round (iteration 0) has no previous round: `input.previous_output` needs an iteration of 1 or more")
    record = checkpoint.loops.get(point.step) or {}
    entry = next((i for i in record.get("iterations", []) if i.get("iteration") == point.iteration - 1), None)
    if entry is None:
        raise ForkPointError("input", f"{iteration_words(point.step, point.iteration - 1, 'round')} of {point.step!r} did not finish: "
                                      "there is no previous output to edit")
    entry["content"] = text
    record["cumulative"] = _cumulative(record["iterations"])
    own = checkpoint.steps.get(f"{point.step}.{point.iteration - 1}")
    if own is not None:  # a single-step loop: the round's own step carries the same output
        own["content"] = text
    return checkpoint

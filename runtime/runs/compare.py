"""Two runs of one workflow side by side: per step and per loop iteration, what each produced, what it cost,
and the first place they parted.

The fold is plain Python over stored events and iteration rows (``units_of``, ``compare_units``), so it tests
without a database; ``compare_runs`` loads both runs for a user and is what the API calls. Events are typed by
:mod:`runtime.engine.shapes`, iteration rows by :mod:`runtime.live.recorder`, which derives them.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from django.conf import settings

from common.errors import BadRequest
from runtime.contract import locate
from runtime.engine.pricing import PriceBook
from runtime.live.serializers import run_dict
from runtime.models import Run, RunEvent, RunIteration

if TYPE_CHECKING:
    from runtime.engine.shapes import AgentTurnData, StepEndData, StepSkippedData, StoredEvent, Tokens
    from runtime.live.recorder import IterationRow, RowVerdict

# What a row shows of each run; the first four decide whether the runs agree there.
AGREEMENT = ("status", "output", "result", "done")
FIELDS = (*AGREEMENT, "reason", "tokens", "cost_usd", "duration_ms", "item", "inherited", "edited", "pinned")


class Unit(TypedDict):
    """What one run did at one step or iteration."""

    status: str | None
    output: str | None
    result: Any
    done: bool | None
    reason: str | None
    tokens: int
    cost_usd: float
    duration_ms: float | None
    item: Any
    inherited: bool  # a fork's row that ended in its parent's events, copied: not run again (not an agreement field)
    edited: list[str]  # what someone changed at a breakpoint held before it (debug_action): inputs, or "skipped"
    pinned: bool       # a pinned output answered it: its model was not asked


class Row(TypedDict):
    key: str
    where: dict[str, Any]        # runtime.contract.locate's reading of the key
    a: Unit | None
    b: Unit | None
    differs: list[str]


class Divergence(TypedDict):
    key: str
    fields: list[str]


class Comparison(TypedDict):
    rows: list[Row]
    diverged_at: Divergence | None


def _blank() -> Unit:
    return {"status": None, "output": None, "result": None, "done": None, "reason": None, "tokens": 0,
            "cost_usd": 0.0, "duration_ms": None, "item": None, "inherited": False, "edited": [], "pinned": False}


def _rolled_up(step_id: str) -> list[str]:
    """The rows a turn's tokens count toward: its own, its iteration's and its top-level step's."""
    keys = [step_id]
    where = locate(step_id)
    if where and where.get("loop"):
        number = where.get("iteration")
        keys.append(f"{where['loop']}.{number}" if number is not None else f"{where['loop']}[{where.get('item')}]")
        keys.append(where["loop"])
    elif where and where.get("include"):
        keys.append(where["include"])
    return list(dict.fromkeys(keys))


def _edited_what(data: Mapping[str, Any]) -> str:
    """An edit's mark: the field, and for a context file which one (``context_file:notes.md``)."""
    field = str(data.get("field"))
    return f"{field}:{data['path']}" if field == "context_file" and data.get("path") else field


def units_of(events: Iterable[StoredEvent], iterations: Iterable[IterationRow], prices: PriceBook,
             provider: str) -> dict[str, Unit]:
    """One row per step (namespaced ids included) and per loop iteration (``loop.N`` / ``loop[N]``)."""
    units: dict[str, Unit] = {}

    def unit(key: str) -> Unit:
        return units.setdefault(key, _blank())

    held: dict[str, str] = {}  # a breakpoint hit's key -> the row it held before

    for event in events:
        kind, step_id = event.get("type"), event.get("stepId") or ""
        data: Any = event.get("data") or {}  # its shape is its type's: each branch names it
        if not step_id:
            continue
        if kind == "breakpoint_hit":
            held[str(data.get("key"))] = _held_key(data.get("where") or {}, step_id)
            continue
        if kind == "debug_action":
            row_key = held.get(str(data.get("key")), step_id)
            what = _edited_what(data) if data.get("action") == "edit" else "skipped" if data.get("action") == "skip" else ""
            if what and what not in unit(row_key)["edited"]:
                unit(row_key)["edited"].append(what)
            continue
        if kind in ("step_end", "step_skipped", "iteration_end"):
            # A row is inherited when how it ended was: a fork's copy of its parent's event.
            unit(_ended_key(step_id, data) if kind == "iteration_end" else step_id)["inherited"] = bool(event.get("inherited"))
        if kind == "step_end":
            ended: StepEndData = data
            row = unit(step_id)
            row.update({"status": ended.get("status"), "output": ended.get("content"), "result": ended.get("result"),
                        "duration_ms": event.get("durationMs")})
            reason = ended.get("reason")
            if reason:
                row["reason"] = reason
        elif kind == "step_skipped":
            skipped: StepSkippedData = data
            unit(step_id).update({"status": "skipped", "reason": skipped.get("reason") or None})
        elif kind == "agent_turn" and data.get("phase") == "response":
            turn: AgentTurnData = data
            if turn.get("pinned"):
                unit(step_id)["pinned"] = True
            given = event.get("tokens")
            tokens: Tokens | dict[str, int] = given if isinstance(given, dict) else {}
            prompt, completion = int(tokens.get("prompt") or 0), int(tokens.get("completion") or 0)
            cost = prices.cost(turn.get("provider") or provider, turn.get("model") or "", prompt, completion) or 0.0
            for key in _rolled_up(step_id):
                unit(key)["tokens"] += int(tokens.get("total") or prompt + completion)
                unit(key)["cost_usd"] += cost
    for it in iterations:
        number = it.get("iteration")
        key = f"{it['step_id']}.{number}" if number is not None else f"{it['step_id']}[{it.get('index')}]"
        row = unit(key)
        verdict: RowVerdict | dict[str, Any] = it.get("verdict") or {}
        row.update({"status": it.get("status") or row["status"], "output": it.get("content"),
                    "result": it.get("result"), "duration_ms": it.get("duration_ms"), "item": it.get("item"),
                    "done": verdict.get("done"), "reason": verdict.get("reason") or row["reason"]})
    for row in units.values():
        row["cost_usd"] = round(row["cost_usd"], 8)
    return units


def _held_key(where: dict[str, Any], step_id: str) -> str:
    """The row a hold stood before: a round or item of its loop, else the step it named."""
    if where.get("kind") in ("round", "judge") and isinstance(where.get("round"), int) and where.get("loop"):
        return f"{where['loop']}[{where['round']}]" if where.get("item") else f"{where['loop']}.{where['round']}"
    return str(where.get("step") or step_id)


def _ended_key(loop: str, data: Any) -> str:
    """The row of an ``iteration_end``: ``loop.N`` (a round) or ``loop[N]`` (an item)."""
    number = data.get("iteration")
    return f"{loop}.{number}" if number is not None else f"{loop}[{data.get('index') or 0}]"


def _order_key(key: str, first_seen: dict[str, int]) -> tuple[int, bool, int, str, str]:
    where = locate(key) or {}
    top = where.get("loop") or where.get("include") or key
    number = where.get("iteration", where.get("item"))
    return (first_seen.get(top, len(first_seen)), key != top, number if number is not None else -1,
            where.get("inner") or "", key)


def differences(a: Unit | None, b: Unit | None) -> list[str]:
    """The fields the two runs disagree on at one row (all of them when one run never got there)."""
    if a is None or b is None:
        return ["missing"]
    return [f for f in AGREEMENT if a.get(f) != b.get(f)]


def compare_units(a: dict[str, Unit], b: dict[str, Unit], order_a: list[str], order_b: list[str]) -> Comparison:
    """Rows in reading order (a's order first, then what only b has), and the first row where they differ."""
    first_seen: dict[str, int] = {}
    for key in [*order_a, *order_b]:
        where = locate(key) or {}
        first_seen.setdefault(where.get("loop") or where.get("include") or key, len(first_seen))
    keys = sorted(set(a) | set(b), key=lambda k: _order_key(k, first_seen))
    rows: list[Row] = [
        {"key": k, "where": locate(k) or {}, "a": a.get(k), "b": b.get(k), "differs": differences(a.get(k), b.get(k))}
        for k in keys]
    # A loop or an include differs because something inside it does: point at that, not at the whole.
    parents = {(locate(k) or {}).get("loop") or (locate(k) or {}).get("include") for k in keys}
    first = (next((r for r in rows if r["differs"] and r["key"] not in parents), None)
             or next((r for r in rows if r["differs"]), None))
    return {"rows": rows, "diverged_at": {"key": first["key"], "fields": first["differs"]} if first else None}


def _loaded(run: Run, prices: PriceBook) -> tuple[dict[str, Unit], list[str]]:
    texts = (RunEvent.objects.filter(run=run, type__in=("step_start", "step_end", "step_skipped", "agent_turn", "iteration_end",
                                                        "breakpoint_hit", "debug_action"))
             .order_by("seq").values_list("event_json", flat=True))
    events: list[StoredEvent] = [json.loads(t) for t in texts]  # where stored events enter: as what they are
    rows: Iterable[IterationRow] = RunIteration.objects.filter(run=run).values(
        "step_id", "iteration", "index", "item", "status", "content", "result", "verdict", "duration_ms")
    order = list(dict.fromkeys(step for e in events if (step := e.get("stepId"))))
    return units_of(events, rows, prices, run.provider), order


def compare_runs(a: Run, b: Run) -> dict[str, Any]:
    """Both runs (already checked readable) side by side; refuses runs of two different workflows."""
    if a.workflow_id != b.workflow_id:
        raise BadRequest(f"run {b.id} is of workflow “{b.workflow.name}”, not “{a.workflow.name}”: "
                         "only runs of the same workflow can be compared")
    prices = PriceBook(overrides=dict(getattr(settings, "MODEL_PRICES", {}) or {}))
    units_a, order_a = _loaded(a, prices)
    units_b, order_b = _loaded(b, prices)
    return {"a": run_dict(a), "b": run_dict(b), "same_version": a.version_id == b.version_id,
            **compare_units(units_a, units_b, order_a, order_b)}

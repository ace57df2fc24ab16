"""CEL for workflow documents: the one door to check, inspect and evaluate expressions.

Every parse and every evaluation runs in a worker process (:mod:`designer.cel_pool`,
:mod:`designer.cel_worker`) under limits the expression cannot escape, and never
on an event loop:

* CPU time, held by the kernel: ``CEL_EVAL_TIMEOUT_MS`` (default 50) per
  evaluation, ``CEL_PARSE_TIMEOUT_MS`` (default 300) per parse. A worker that
  uses its time up is ended by a CPU timer signal; the caller gets
  :class:`CelCostExceeded` ("expression exceeded its evaluation budget
  (cel_budget_exceeded: more than 50 ms of CPU time)"). Turning variables into
  CEL values is not counted: it costs in proportion to the data, not to the
  expression, and is held by the variables' size cap (an eighth of the memory
  cap) and the wall-clock bound.
* Wall-clock time, held by the caller: ``CEL_WALL_TIMEOUT_MS`` (default 5000,
  never less than twice the CPU limits), then SIGKILL. CPU time is the limit
  that matters; the wall-clock bound only catches a worker that cannot be
  scheduled or is stuck, so a loaded machine does not fail expressions that
  would have fitted (at load 5 on 2 cores, 50 ms of CPU took over a second).
* Memory: ``CEL_MEMORY_MB`` (default 512) of address space per worker.
* Validation: all the expressions of one document may cost ``CEL_CHECK_BUDGET_MS``
  (default 500) of parse time together; past it the rest are reported unchecked.
* Workers: ``CEL_WORKERS`` (default 2) evaluate for runs, ``CEL_CHECK_WORKERS``
  (default 1) check for validation, so anonymous validation cannot starve runs.

Why processes, measured on the 2-core development machine (bench/hostile.py):

* The old bound was a ``sys.settrace`` tracer that raised. Raised inside lark's
  own code the exception was swallowed, CPython dropped the tracer, and the
  evaluation went on unbounded, on the server's event loop (21 s freezes).
* The Rust-backed ``common-expression-language`` 0.10.0 evaluates our
  expressions (``has()``, macros, ``steps['a-b']``, ``contains``, ``matches``)
  and is faster (``size(L.map(a, L.map(b, a))) > 0`` with 200 items: 0.48 s,
  cel-python 2.15 s), but it has no cost limit, so the attack still runs (380
  items: 3.5 s; a cubic one with 100 items: 10.4 s), and it holds the GIL
  throughout (a thread beside it ticked twice in 22 s). Its errors are bare
  Python exceptions (``KeyError 'nope'``), not our messages. A native
  evaluator without a bound is no bound, so cel-python stays, in workers.
* A request to a worker costs a socket round trip (about 60 µs on an idle
  machine); an ordinary ``until`` or ``condition`` (about 0.3 ms in process)
  costs 1.2-2x that through the pool, and less than the traced in-process
  evaluation it replaces, whose tracer slowed every call 2-3x.

Cheap things stay in process: the length cap, :func:`normalize`, and a cache
of inspection results, so an editor validating on every keystroke pays only
for the expression that changed.
"""
from __future__ import annotations

import copy
import os
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from common.env import ImproperlyConfiguredEnv, envint
from designer.cel_language import (
    MAX_EXPRESSION_LENGTH,
    MAX_RESULT_ITEMS,
    CelCostExceeded,
    CelError,
    CelUnavailable,
    Inspection,
    hyphen_dot_refs,
    length_error,
    normalize,
)
from designer.cel_pool import Limits, Pool, Reply, forget_zygote

__all__ = [
    "MAX_EXPRESSION_LENGTH", "MAX_RESULT_ITEMS", "CelBudgetExhausted", "CelCostExceeded", "CelError", "CelUnavailable", "CheckBudget",
    "Inspection", "compile_expression", "evaluate", "evaluate_async", "hyphen_dot_refs", "inspect", "limits",
    "normalize", "pool",
]


class CelBudgetExhausted(CelCostExceeded):
    """The expressions of one validation used up their shared budget before this one was checked."""


@lru_cache(maxsize=1)
def limits() -> Limits:
    return Limits(parse_ms=_positive("CEL_PARSE_TIMEOUT_MS", 300), eval_ms=_positive("CEL_EVAL_TIMEOUT_MS", 50),
                  wall_ms=_positive("CEL_WALL_TIMEOUT_MS", 5000), memory_mb=_positive("CEL_MEMORY_MB", 512))


def _positive(name: str, default: int) -> int:
    value = envint(name, default)
    if value <= 0:
        raise ImproperlyConfiguredEnv(f"{name}={value} must be a positive number")
    return value


_pools: dict[str, Pool] = {}
_pools_lock = threading.Lock()
_POOL_SIZES = {"evaluate": ("CEL_WORKERS", 2), "check": ("CEL_CHECK_WORKERS", 1)}


def pool(name: str) -> Pool:
    """The worker pool for ``evaluate`` (runs) or ``check`` (validation), created on first use."""
    found = _pools.get(name)
    if found is None:
        with _pools_lock:
            found = _pools.get(name)
            if found is None:
                variable, default = _POOL_SIZES[name]
                found = _pools[name] = Pool(name, _positive(variable, default), limits())
    return found


def _forget_after_fork() -> None:
    _pools.clear()
    forget_zygote()


# A forked child (Celery's prefork pool) must start its own workers, not talk over its parent's sockets.
os.register_at_fork(after_in_child=_forget_after_fork)


# ---------------------------------------------------------------------- evaluation


def _evaluation(expression: str, variables: dict[str, Any], timeout_ms: float | None) -> tuple[tuple, float]:
    too_long = length_error(expression)
    if too_long:
        raise too_long
    bound = limits()
    eval_ms = timeout_ms or bound.eval_ms
    return ("evaluate", expression, variables, bound.parse_ms / 1000, eval_ms / 1000), eval_ms


def _value(reply: Reply) -> Any:
    if reply.kind == "ok":
        return reply.payload
    if reply.kind == "cost":
        raise reply.payload
    raise CelError(reply.payload)


def evaluate(expression: str, variables: dict[str, Any], *, timeout_ms: float | None = None) -> Any:
    """Evaluate with JSON-like ``variables``; return plain Python. Blocks this thread, never more than the bounds.

    Raises :class:`CelError` for compile errors and evaluation errors (missing
    fields, wrong types), :class:`CelCostExceeded` past a limit.
    """
    message, eval_ms = _evaluation(expression, variables, timeout_ms)
    return _value(pool("evaluate").request(message, phase_ms=eval_ms, parse=False))


async def evaluate_async(expression: str, variables: dict[str, Any], *, timeout_ms: float | None = None) -> Any:
    """:func:`evaluate` for the engine: awaits the worker without blocking the event loop."""
    message, eval_ms = _evaluation(expression, variables, timeout_ms)
    return _value(await pool("evaluate").request_async(message, phase_ms=eval_ms, parse=False))


# ---------------------------------------------------------------------- checking


class CheckBudget:
    """The parse time the expressions of one validation may spend together."""

    def __init__(self, ms: float | None = None) -> None:
        self.total_ms = ms if ms is not None else _positive("CEL_CHECK_BUDGET_MS", 500)
        self.spent_ms = 0.0

    @property
    def remaining_ms(self) -> float:
        return max(self.total_ms - self.spent_ms, 0.0)


class _Results:
    """A small thread-safe LRU of inspection outcomes (an Inspection, or the CelError to raise again)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_inspections = _Results(2048)


def inspect(expression: str, *, budget: CheckBudget | None = None) -> Inspection:
    """Variables and step references of an expression, parsed under the parse bound
    (cached: treat the answer as read-only). Raises :class:`CelError` when it does not parse."""
    outcome = _inspections.get(expression)
    if outcome is None:
        outcome = _check(expression, budget)
    if isinstance(outcome, CelError):
        raise copy.copy(outcome)  # a fresh one each time: a raised instance keeps growing its traceback
    return outcome


def _check(expression: str, budget: CheckBudget | None) -> Inspection | CelError:
    """Parse in a check worker. Only what the expression itself decides is remembered: its inspection, its
    syntax error, or that it used up the full parse time; a starved or crashed worker says nothing about it."""
    too_long = length_error(expression)
    if too_long:
        return too_long
    full_ms = limits().parse_ms
    limit_ms = full_ms if budget is None else min(full_ms, budget.remaining_ms)
    if budget is not None and limit_ms <= 0:  # parse_ms is positive: only a shared budget runs out
        raise _exhausted(budget)
    try:
        reply = pool("check").request(("check", expression, limit_ms / 1000), phase_ms=limit_ms, parse=True)
    except CelCostExceeded as exc:
        if budget is not None:
            budget.spent_ms += limit_ms
        if "CPU time" not in exc.limit:
            raise
        if budget is not None and limit_ms < full_ms:  # the shared budget ran out, not this expression's own bound
            raise _exhausted(budget) from None
        outcome: Inspection | CelError = exc
    else:
        if budget is not None:
            budget.spent_ms += reply.cpu_ms
        outcome = CelError(reply.payload) if reply.kind == "error" else reply.payload
    _inspections.put(expression, outcome)
    return outcome


def _exhausted(budget: CheckBudget) -> CelBudgetExhausted:
    return CelBudgetExhausted(f"this document's expressions used up their {budget.total_ms:.0f} ms parse budget "
                              f"(cel_check_budget_exhausted)", code="cel_check_budget_exhausted",
                              limit=f"{budget.total_ms:.0f} ms")


def compile_expression(expression: str) -> Inspection:
    """Check that an expression parses (under the parse bound); raise :class:`CelError` with a readable message."""
    return inspect(expression)

"""One step from start to end: condition, timeout, retries, then its body.

The body is an agent conversation, a loop (see :mod:`runtime.engine.loops`)
or an include (see :mod:`runtime.engine.includes`). ``timeout`` bounds one
attempt (on a loop, all its iterations together); ``options.stepTimeout`` is
the default for agent steps, including each step inside a loop iteration.
``retries`` re-run the whole step, so a loop restarts at iteration 0.

A loop's ``step_end`` carries the tokens (and cost) its last attempt's
iterations and judges spent; an include's, what every attempt of the included
workflow spent (as upstream's runner counts them); an agent step's, its last
attempt's replies. A dependency that is a
cumulative repeat-until reaches its dependents' prompts whole (upstream's
``PreserveContent``). A ``condition`` that reads a map key the run does not hold
skips the step, as upstream's runner does ("missing data"); any other
``condition`` or ``forEach`` expression that cannot be evaluated fails the step
with a sentence naming it (:mod:`~runtime.engine.cel_words`).
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any

from designer.cel import CelError, evaluate_async
from runtime.engine.agent import run_agent_step
from runtime.engine.cel_words import describe, missing_key
from runtime.engine.context import DEADLINES, RunContext, Scope, StepError, duration
from runtime.engine.debug_inputs import step_pending
from runtime.engine.debugger import Pending, Release
from runtime.engine.includes import run_include
from runtime.engine.loops import loop_spent, run_foreach, run_repeat_until
from runtime.engine.prompting import StepOutput
from runtime.engine.state import CANCELLED, FAILED, SKIPPED, Outcome
from runtime.events import format_duration
from runtime.providers import ProviderError, redact


def cel_variables(scope: Scope, outcomes: Mapping[str, Outcome], **extra: Any) -> dict:
    return {"steps": {k: v.cel() for k, v in outcomes.items()}, **scope.variables, **extra}


def keeps_whole_output(step: dict) -> bool:
    """A cumulative repeat-until: its output reaches the steps after it uncut (upstream's ``PreserveContent``)."""
    loop = step.get("loop")
    return isinstance(loop, dict) and "forEach" not in loop and loop.get("outputMode") == "cumulative"


def step_outputs(ids: Sequence[str], outcomes: Mapping[str, Outcome], steps: list[dict] | None = None) -> list[StepOutput]:
    """The outputs of the steps ``ids`` that finished; ``steps``: their scope's steps, for which are kept whole."""
    if not ids:
        return []
    whole = {s["id"] for s in steps if keeps_whole_output(s)} if steps else set()
    return [StepOutput(i, outcomes[i].status, outcomes[i].content, outcomes[i].result, preserve=i in whole)
            for i in ids if i in outcomes]


async def loop_items(scope: Scope, step: dict, outcomes: Mapping[str, Outcome]) -> list:
    source = step["loop"]["forEach"]
    if isinstance(source, list):
        return source
    variables = cel_variables(scope, outcomes)
    try:
        value = await evaluate_async(source, variables)
    except CelError as exc:
        raise StepError(describe("forEach", source, variables, str(exc))) from None
    if not isinstance(value, list):
        kind = {dict: "a map", str: "a string", bool: "a bool", type(None): "null"}.get(type(value), type(value).__name__)
        raise StepError(f"forEach must give a list, but {source!r} gave {kind}")
    return value


async def run_step(ctx: RunContext, scope: Scope, step: dict, index: int, total: int,
                   outcomes: Mapping[str, Outcome], path: str | None = None) -> Outcome:
    """Run one step and record its end in ``ctx.state`` (right before ``step_end`` / ``step_skipped``)."""
    emit = ctx.emitter.emit
    path = path or scope.ns(step["id"])
    deps = step.get("dependsOn") or []
    if step.get("condition"):
        variables = cel_variables(scope, outcomes, content="")
        try:
            value = await evaluate_async(step["condition"], variables)
            if not isinstance(value, bool):
                raise CelError(f"condition must give a bool, got {type(value).__name__}")
        except CelError as exc:
            missing = missing_key(step["condition"], variables, str(exc))
            if missing is None:
                return await _fail_before_start(ctx, path, index, total,
                                                describe("condition", step["condition"], variables, str(exc)))
            # Upstream's runner treats data that is not there as a false condition, with a message saying so.
            await emit("message", step_id=path, message=f"condition eval: missing data, skipping step: {missing}")
            ctx.state.finish_step(path, Outcome(SKIPPED))
            await emit("step_skipped", step_id=path, message=f"condition could not read its data: {missing}",
                       data={"status": SKIPPED, "reason": "condition", "condition": step["condition"],
                             "missing": missing})
            return Outcome(SKIPPED)
        if not value:
            ctx.state.finish_step(path, Outcome(SKIPPED))
            await emit("step_skipped", step_id=path, message="condition is false",
                       data={"status": SKIPPED, "reason": "condition", "condition": step["condition"]})
            return Outcome(SKIPPED)

    if ctx.debugger is not None:  # a breakpoint before this step holds here (runtime.engine.debugger)
        step, release = await _breakpoint(ctx, scope, step, path, outcomes)
        if release is not None:
            return await _skipped(ctx, path, index, total, release)

    start: dict[str, Any] = {"index": index, "total": total}
    kind = "include" if step.get("include") else "loop" if step.get("loop") else "agent"
    items = None
    if kind == "loop":
        loop = step["loop"]
        start["loop_type"] = "forEach" if "forEach" in loop else "repeat-until"
        if "forEach" in loop:
            try:
                items = await loop_items(scope, step, outcomes)
            except StepError as exc:
                return await _fail_before_start(ctx, path, index, total, str(exc), start)
            start["items"] = len(items)
        else:
            start["max_iterations"] = loop.get("maxIterations")
    elif kind == "include":
        start["include"] = step["include"]
    agent_name = (step.get("agent") or "default") if kind == "agent" else None
    # A step open when the run lost its worker goes on here: its time counts from its first start, not the resume.
    before, first_start = ctx.carried_over(path)
    if first_start is not None:
        start["started_at"], start["carried_s"] = first_start, round(before, 3)
    await emit("step_start", step_id=path, agent=agent_name, data=start)

    dep_outputs = step_outputs(deps, outcomes, scope.steps) or (scope.outer_deps if not deps else [])
    timeout = duration(step.get("timeout")) or (ctx.step_timeout if kind == "agent" else None)
    retries = step.get("retries") or 0
    started = ctx.active_time() - before
    spent: dict | None = None

    async def body() -> tuple[Outcome, dict | None]:
        if kind == "agent":
            earlier = []
            if scope.loop is not None:
                earlier = step_outputs([s["id"] for s in scope.steps if s["id"] in outcomes and s["id"] not in deps],
                                       outcomes)
            return await run_agent_step(ctx, scope, step, path, dep_outputs, earlier)
        if kind == "include":
            return await run_include(ctx, scope, step, path, dep_outputs)
        if items is not None:
            return await run_foreach(ctx, scope, step, path, items, dep_outputs)
        return await run_repeat_until(ctx, scope, step, path, dep_outputs)

    earlier_attempts: dict | None = None  # an include's: every attempt of the included workflow counts
    attempt = 0
    while True:
        attempt += 1
        if kind != "agent":
            spent = None
        deadline = asyncio.timeout(timeout)  # None: no deadline
        held = DEADLINES.set((*DEADLINES.get(), deadline))
        try:
            async with deadline:
                outcome, spent = await body()
        except TimeoutError as exc:
            # The step's own deadline, or a timeout raised by something inside the step.
            own = timeout is not None and deadline.expired()
            outcome = Outcome(FAILED, error=f"timed out after {format_duration(timeout)}" if own and timeout is not None
                              else f"timed out inside the step: {exc or exc.__class__.__name__}")
        except (ProviderError, StepError) as exc:
            outcome = Outcome(FAILED, error=_provider_text(ctx, exc))
        except asyncio.CancelledError:
            ctx.state.finish_step(path, Outcome(CANCELLED, error="run halted"))
            await emit("step_end", step_id=path, agent=agent_name, duration=ctx.active_time() - started,
                       error=ctx.halt_reason or "cancelled", data={"status": CANCELLED, "attempts": attempt})
            raise
        finally:
            DEADLINES.reset(held)
        if spent is None and kind != "agent":  # it timed out or failed part way: what it had spent still counts
            spent = loop_spent(ctx, step, path) if kind == "loop" else ctx.state.spent_within(path)
        if outcome.status != FAILED or attempt > retries:
            break
        if kind == "include":
            earlier_attempts, spent = _added(earlier_attempts, spent), None
        ctx.state.forget(path)  # the next attempt starts clean: a loop at iteration 0
        await emit("message", step_id=path, message=f"retrying {path} (attempt {attempt + 1} of {retries + 1}) "
                                                    f"after: {outcome.error}", data={"level": "info", "retry": attempt})
    if outcome.status == FAILED:
        await emit("error", step_id=path, agent=agent_name, error=outcome.error)
    if earlier_attempts is not None:
        spent = _added(earlier_attempts, spent)
    tokens, cost = (spent["tokens"], spent["cost_usd"]) if spent else (None, None)
    ctx.state.finish_step(path, outcome, tokens, cost)
    await emit("step_end", step_id=path, agent=agent_name, duration=ctx.active_time() - started,
               tokens=tokens, error=outcome.error if outcome.status == FAILED else None,
               data={"status": outcome.status, "content": outcome.content, "result": outcome.result,
                     "attempts": attempt, **({"cost_usd": cost} if cost is not None else {})})
    return outcome


async def _breakpoint(ctx: RunContext, scope: Scope, step: dict, path: str,
                      outcomes: Mapping[str, Outcome]) -> tuple[dict, Release | None]:
    """The debugger asked before the step: the step to run (its instructions maybe edited), and a skip."""
    def pending(current: dict) -> Awaitable[Pending]:
        deps = step_outputs(current.get("dependsOn") or [], outcomes, scope.steps) or (
            scope.outer_deps if not current.get("dependsOn") else [])
        earlier = step_outputs([s["id"] for s in scope.steps if s["id"] in outcomes
                                and s["id"] not in (current.get("dependsOn") or [])], outcomes) if scope.loop else []
        return _ready(step_pending(ctx, scope, current, path, deps, earlier, cel_variables(scope, outcomes)))

    return await ctx.debugger.before_step(ctx, step, path, scope.variables, pending,
                                          lambda: cel_variables(scope, outcomes))


async def _ready(pending: Pending) -> Pending:
    return pending


async def _skipped(ctx: RunContext, path: str, index: int, total: int, release: Release) -> Outcome:
    """A step skipped at a breakpoint: it ends with the output typed, and no model is asked."""
    emit = ctx.emitter.emit
    outcome = release.outcome()
    await emit("step_start", step_id=path, data={"index": index, "total": total, "debugger": "skipped"})
    ctx.state.finish_step(path, outcome)
    await emit("step_end", step_id=path, duration=0.0,
               data={"status": outcome.status, "content": outcome.content, "result": outcome.result, "attempts": 0,
                     "debugger": "skipped", **({"actor": release.actor} if release.actor else {})})
    return outcome


def _added(a: dict | None, b: dict | None) -> dict | None:
    """Two ``{"tokens", "cost_usd"}`` spends summed (the cost None while neither had a price)."""
    if a is None or b is None:
        return a or b
    ta, tb = a["tokens"], b["tokens"]
    prompt, completion = ta["prompt"] + tb["prompt"], ta["completion"] + tb["completion"]
    costs = [c for c in (a["cost_usd"], b["cost_usd"]) if c is not None]
    return {"tokens": {"prompt": prompt, "completion": completion, "total": prompt + completion},
            "cost_usd": sum(costs) if costs else None}


def _provider_text(ctx: RunContext, exc: Exception) -> str:
    secrets = [getattr(p, "api_key", None) for p in ctx.providers.values()]
    return redact(str(exc) or exc.__class__.__name__, *secrets)


async def _fail_before_start(ctx: RunContext, path: str, index: int, total: int, error: str,
                             start: dict | None = None) -> Outcome:
    emit = ctx.emitter.emit
    await emit("step_start", step_id=path, data=start or {"index": index, "total": total})
    await emit("error", step_id=path, error=error)
    outcome = Outcome(FAILED, error=error)
    ctx.state.finish_step(path, outcome)
    await emit("step_end", step_id=path, error=error, duration=0.0, data={"status": FAILED})
    return outcome


"""DAG scheduling for one scope (top level, an include, or a loop iteration).

Every step gets a task that waits for its dependencies, then for a slot
(``options.maxConcurrency``, 0/absent = 5) and for the run not to be paused,
and then runs. A failed dependency decides by ``options.onStepFailure``:
``cascade`` fails the dependent, ``skip-dependents`` skips it (and, in turn,
its own dependents), ``abort`` halts the whole run. A step skipped by its
``condition`` is not a failure: its dependents run. A dependent failed or
skipped because of a failure gets ``step_end`` (or ``step_skipped``) without a
``step_start``: it never started. ``options.scheduler`` does not change the
order: ready steps start in document order (``dependency-first``).
"""
from __future__ import annotations

import asyncio

from runtime.engine.context import RunContext, Scope
from runtime.engine.registry import ScopeOutcomes
from runtime.engine.state import CANCELLED, FAILED, SKIPPED, Outcome


async def run_scope(ctx: RunContext, scope: Scope) -> ScopeOutcomes:
    """Run every step of ``scope``; returns its outcomes (id -> outcome), which live in ``ctx.state``.

    An outcome is recorded right before the event that ends the step, so the run's state at
    any event is the state its events describe (:mod:`runtime.engine.checkpoints`)."""
    outcomes = ctx.state.scope(scope.ns, [s["id"] for s in scope.steps])
    finished = {s["id"]: asyncio.Event() for s in scope.steps}
    slots = asyncio.Semaphore(max(scope.concurrency, 1))
    total = len(scope.steps)
    emit = ctx.emitter.emit

    async def one(index: int, step: dict) -> None:
        sid = step["id"]
        path = scope.ns(sid)
        deps = step.get("dependsOn") or []
        if sid in outcomes:  # finished before this run began (it started from a checkpoint): not run again
            finished[sid].set()
            return
        try:
            for dep in deps:
                if dep not in finished:
                    lost = Outcome(FAILED, error=f"dependsOn names {dep!r}, which is not in this scope")
                    await emit("error", step_id=path, error=lost.error)
                    outcomes.finish(sid, lost)
                    await emit("step_end", step_id=path, error=lost.error, data={"status": FAILED})
                    return
                await finished[dep].wait()
            failed = [d for d in deps if outcomes[d].status == FAILED or (outcomes[d].blocked and outcomes[d].status != CANCELLED)]
            cancelled = [d for d in deps if outcomes[d].status == CANCELLED]
            if failed:
                await _blocked(ctx, outcomes, sid, path, failed)
            elif cancelled:
                gone = outcomes.finish(sid, Outcome(CANCELLED, error=f"dependency {cancelled[0]!r} was cancelled",
                                                    blocked=True))
                await emit("step_end", step_id=path, error=gone.error,
                           data={"status": CANCELLED, "reason": "dependency_cancelled"})
            else:
                async with slots:
                    await ctx.until_resumed()
                    await ctx.run_step(ctx, scope, step, index, total, outcomes)  # records its own end
        except asyncio.CancelledError:
            outcomes.note(sid, Outcome(CANCELLED, error="run halted"))  # never started: no event says so
            raise
        except Exception as exc:  # a bug must not leave the scope hanging
            broken = Outcome(FAILED, error=f"internal error: {exc.__class__.__name__}: {exc}")
            outcomes.note(sid, broken, replace=True)
            await emit("error", step_id=path, error=broken.error)
        finally:
            finished[sid].set()
        out = outcomes[sid]
        if out.status == FAILED and not out.blocked and ctx.on_failure == "abort":
            ctx.halt(FAILED, f"step '{path}' failed: {out.error} (onStepFailure: abort)", "aborted")

    tasks = [asyncio.create_task(one(i, s)) for i, s in enumerate(scope.steps)]
    await asyncio.gather(*tasks)
    return outcomes


async def _blocked(ctx: RunContext, outcomes: ScopeOutcomes, sid: str, path: str, failed: list[str]) -> None:
    emit = ctx.emitter.emit
    names = ", ".join(repr(d) for d in failed)
    if ctx.on_failure == "skip-dependents":
        text = f"dependency {names} failed (onStepFailure: skip-dependents)"
        outcomes.finish(sid, Outcome(SKIPPED, error=text, blocked=True))
        await emit("step_skipped", step_id=path, message=text, data={"status": SKIPPED, "reason": "dependency_failed"})
        return
    text = f"dependency {names} failed"
    await emit("error", step_id=path, error=text)
    outcomes.finish(sid, Outcome(FAILED, error=text, blocked=True))
    await emit("step_end", step_id=path, error=text, data={"status": FAILED, "reason": "dependency_failed"})

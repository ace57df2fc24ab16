"""The runtime engine: executes a zenflow v1 document as plain async Python.

How a run flows: :func:`run_workflow` builds a :class:`~runtime.engine.context.RunContext`
from its :class:`~runtime.engine.options.RunOptions` (emitter, providers, budgets, control,
resolver, clock) and emits ``workflow_start`` (and, once per run, ``plan_ready``:
:mod:`~runtime.engine.plan`); it refuses agent tools this runtime does not provide,
arms the run timers (the document's ``options.timeout``, ``max_duration_s``), then runs the
top-level steps with :func:`~runtime.engine.scheduler.run_scope`, which starts
each step when its dependencies are done, within ``maxConcurrency``, unless the
run is paused. :func:`~runtime.engine.steps.run_step` evaluates the step's
``condition``, applies ``timeout`` and ``retries`` and runs its body: an agent
conversation (:mod:`~runtime.engine.agent`, the prompt assembled by
:mod:`runtime.engine.prompting`, ``submit_result`` checked against ``resultSchema``),
a loop (:mod:`~runtime.engine.loops`: **loop iterations happen in**
``run_foreach`` **and** ``run_repeat_until``, each iteration a nested scope of
the same scheduler), or an include (:mod:`~runtime.engine.includes`). Every state
change goes through the one emitter (:mod:`runtime.events`), which stamps
``seq``, ``timestamp`` and ``runId``. Anything that must end the run early (a
failing step under ``onStepFailure: abort``, a crossed budget, the run timeout,
``control.stop()``) calls ``ctx.halt``, which cancels the root task; each
running step records ``cancelled`` as the cancellation passes through it. The
run finishes with ``workflow_end`` and returns a :class:`RunResult`.

The run's state (every finished step, each loop's rounds and verdicts, the
budgets spent) is one record, ``ctx.state`` (:mod:`~runtime.engine.registry`),
written right before the event that announces each change, so that
:mod:`runtime.engine.checkpoints` rebuilds it from the events at any boundary. A run
may start from such a checkpoint (``RunOptions.start``): what it holds is not run again.

Nothing here needs Django: the CLI, the web server and a Celery worker all call
:func:`run_workflow` with their own sink, providers and resolver (in :class:`RunOptions`).
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Mapping
from pathlib import Path
from typing import cast

from runtime.engine import coordination
from runtime.engine.context import DEFAULT_CONCURRENCY, RunContext, Scope, duration
from runtime.engine.folder import RunFolder
from runtime.engine.includes import FileResolver
from runtime.engine.mail import RunMail, lists_memory_tools
from runtime.engine.options import RunOptions
from runtime.engine.plan import plan_of
from runtime.engine.policies import attach
from runtime.engine.pricing import PriceBook
from runtime.engine.registry import RunState
from runtime.engine.resume_points import first_starts, public_notice
from runtime.engine.scheduler import run_scope
from runtime.engine.shapes import WorkflowDoc
from runtime.engine.state import CANCELLED, COMPLETED, FAILED, PARTIAL, Budgets, LoopMeta, Outcome, RunControl, RunResult
from runtime.engine.steps import run_step
from runtime.engine.toolcalls import unknown_tools_message, warn_untooled
from runtime.events import Emitter, Sink, format_duration
from runtime.numbering import place_words
from runtime.providers import get_provider
from runtime.providers.script import parse_script
from runtime.tools.session import SnapshotRecord

__all__ = ["Budgets", "FileResolver", "LoopMeta", "Outcome", "RunControl", "RunOptions", "RunResult", "run_workflow"]


async def run_workflow(document: WorkflowDoc, options: RunOptions) -> RunResult:
    """Run ``document`` (already validated) to the end and return its result.

    ``options`` (:class:`~runtime.engine.options.RunOptions`) says how: the run's id and sink (both required),
    its providers, budgets, control, includes, folder, prices, tools, and where it starts from.
    """
    # The options are read here, once: what the run goes on using is in locals and in ctx.
    run_id, default_provider, tools, start, resumed = (options.run_id, options.default_provider, options.tools,
                                                       options.start, options.resumed)
    budgets = options.budgets or Budgets()
    control = options.control or RunControl()
    providers = dict(options.providers or {})
    if options.script is not None and "simulated" not in providers:
        providers["simulated"] = get_provider("simulated", script=parse_script(options.script))
    if default_provider not in providers:
        providers[default_provider] = get_provider(default_provider)
    observed = _Observed(options.sink)
    emitter = Emitter(run_id, observed)
    emitter.seq = options.first_seq
    base_dir = options.base_dir
    top_folder = options.folder if options.folder is not None else base_dir
    run_folder = RunFolder(Path(top_folder)) if top_folder is not None else None
    prices = options.prices
    ctx = RunContext(document=document, run_id=run_id, emitter=emitter, providers=providers,
                     default_provider=default_provider, budgets=budgets, control=control,
                     resolver=options.resolver if options.resolver is not None else FileResolver(run_folder),
                     base_dir=Path(base_dir) if base_dir is not None else None, folder=run_folder,
                     prices=prices if isinstance(prices, PriceBook) else PriceBook(overrides=dict(prices or {})),
                     clock=options.clock or time.monotonic, sleep=options.sleep or asyncio.sleep)
    ctx.run_scope, ctx.run_step = run_scope, run_step
    ctx.model_override = options.model_override or None
    ctx.thinking = options.thinking or None
    ctx.pins = dict(options.pins or {})
    ctx.permit = options.permit
    ctx.debugger = options.debugger
    ctx.mail = RunMail(emitter.emit, shared_memory=options.shared_memory or lists_memory_tools(document))
    observed.state, observed.mail = ctx.state, ctx.mail
    if start is not None:
        ctx.state.seed(start)
        ctx.mail.restore(start.mail)  # undelivered messages, shared memory, the coordinator's state
    if resumed is not None:
        ctx.first_started = first_starts(resumed)
    ctx.state.on_boundary = options.on_boundary
    if tools is not None:
        ctx.tools = tools

        async def announce(record: SnapshotRecord) -> None:
            await emitter.emit("workspace_snapshot", step_id=record.step_id, data=record.event_data())

        tools.on_record = announce
    if options.policies is not None:
        attach(ctx, options.policies)
    steps = document.get("steps") or []
    concurrency = (document.get("options") or {}).get("maxConcurrency") or DEFAULT_CONCURRENCY
    started = ctx.clock()
    await emitter.emit("workflow_start", data={
        "total": len(steps), "name": document.get("name", ""), "provider": default_provider,
        "budgets": {k: v for k, v in budgets.__dict__.items() if v is not None},
        **({"model_override": ctx.model_override} if ctx.model_override else {}),
        **({"thinking": ctx.thinking} if ctx.thinking else {}),
        **({"from_checkpoint": start.seq} if start is not None else {})})
    if start is None or not start.seq:  # once per run: a resumed run or a fork has it among its first events
        await emitter.emit("plan_ready", data={"workflow": plan_of(document)})
    if resumed is not None:
        count = f" (resume {resumed.get('attempt')} of {resumed.get('of')})" if resumed.get("attempt") else ""
        await emitter.emit("message", message=f"run resumed after {place_words(resumed.get('after'))} (event {resumed.get('from_seq')}): "
                                              f"{resumed.get('reason')}{count}",
                           data={"level": "info", "resumed": public_notice(resumed)})
    if tools is not None:
        for notice in await tools.open():  # the run's MCP servers start; their tools become the run's
            await ctx.warn(notice)
    unknown = unknown_tools_message(document.get("agents") or {})
    if unknown:
        await emitter.emit("error", error=unknown)
        ctx.halt(FAILED, unknown, "unknown_tool")
    elif tools is not None:
        await tools.snapshot("start")  # the files the run starts from, when it was given any
    else:
        await warn_untooled(ctx, document.get("agents") or {})

    # The scheduler and the steps read a step as a plain dict (its keys: shapes.StepDoc); cast, not copied.
    top = Scope(prefix="", steps=cast("list[dict]", steps), base_dir=ctx.base_dir, includes=document.get("includes") or {},
                concurrency=concurrency)
    outcomes = ctx.state.scope(top.ns, [s["id"] for s in steps])
    coordinator = coordination.start(ctx, options.coordinator)  # woken by the steps' events from here on
    root = asyncio.create_task(run_scope(ctx, top))
    ctx.root_task = root
    if ctx.halted:
        root.cancel()  # refused before it started
    loop = asyncio.get_running_loop()
    timers = []
    run_timeout = duration((document.get("options") or {}).get("timeout"))
    if run_timeout:
        timers.append(loop.call_later(run_timeout, ctx.halt, FAILED,
                                      f"workflow timed out after {format_duration(run_timeout)}", "timeout"))
    if budgets.max_duration_s is not None:
        timers.append(loop.call_later(budgets.max_duration_s, ctx.halt, FAILED,
                                      f"duration budget exceeded: {format_duration(budgets.max_duration_s)}",
                                      "budget:max_duration_s"))
    control.on_stop(lambda: ctx.halt(CANCELLED, "stopped by request", "stopped"))
    if tools is not None:
        control.on_stop(lambda: tools.approvals.close("the run was stopped"))
    # Pause, resume and stop become events too, so the log shows when the run was held and by what.
    def record(action: str) -> Awaitable[dict]:
        return emitter.emit("run_control", message=CONTROL_WORDS[action] + (f" (by {control.actor})" if control.actor else ""),
                            data={"action": action, **({"actor": control.actor} if control.actor else {})})

    control.on_change(lambda action: ctx.track(record(action)))
    if control.state in ("paused", "stopping"):
        # Asked after the run was claimed and before this listened: already in force, recorded now.
        await record("pause" if control.state == "paused" else "stop")
    if control.state == "stopping":
        ctx.halt(CANCELLED, "stopped by request", "stopped")
    cancelled_from_outside = False
    try:
        await asyncio.wait([root])
    except asyncio.CancelledError:
        cancelled_from_outside = True
        ctx.halt(CANCELLED, "run cancelled", "cancelled")
        await asyncio.wait([root])
    finally:
        for timer in timers:
            timer.cancel()
    if not ctx.halted and control.paused and not root.cancelled() and root.exception() is None:
        await control.wait_running()  # its last step ended while paused: the run ends only once resumed (or stopped)
    internal = None
    if not root.cancelled() and root.exception() is not None:
        internal = f"internal error: {root.exception().__class__.__name__}: {root.exception()}"
        await emitter.emit("error", error=internal)

    if ctx.pending:
        await asyncio.gather(*ctx.pending, return_exceptions=True)
    synthesis = await coordination.finish(ctx, coordinator, _result(ctx, outcomes, internal).status)
    await ctx.mail.end_run(cancelled=ctx.halted)  # what nobody read now is dropped, each message once
    if tools is not None:
        tools.approvals.close("the run ended")
        await tools.snapshot("end")
        await tools.close()
    result = _result(ctx, outcomes, internal)
    result.duration_s = ctx.clock() - started
    result.summary = synthesis.summary if synthesis is not None else ""
    control.state = "finished"
    await emitter.emit("workflow_end", duration=result.duration_s,
                       tokens=dict(result.tokens), error=result.reason or None,
                       data={"status": result.status, "reason": result.reason, "code": result.code,
                             "cost_usd": round(result.cost_usd, 6), "loops": result.loops,
                             **({"unpriced_models": result.unpriced_models} if result.unpriced_models else {}),
                             **({"summary": result.summary} if result.summary else {})})
    result.events = emitter.seq
    if cancelled_from_outside:
        raise asyncio.CancelledError()
    return result


CONTROL_WORDS = {"pause": "run paused: running steps finish, nothing new starts",
                 "resume": "run resumed", "stop": "run stopped by request"}


class _Observed:
    """The sink, with the run's state told of each event as it is stamped (before any ``await``):
    a checkpoint taken then has exactly what the events up to that ``seq`` say."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.state: RunState | None = None
        self.mail: RunMail | None = None

    async def emit(self, event: dict) -> None:
        if self.state is not None:
            self.state.observe(event)
        if self.mail is not None:
            self.mail.observe(event)  # containers marked, lifecycle notices for the coordinator
        await self.sink.emit(event)


def _result(ctx: RunContext, outcomes: Mapping[str, Outcome], internal: str | None) -> RunResult:
    status: str
    if internal:
        status, reason, code = FAILED, internal, "internal"
    elif ctx.halted:
        status, reason, code = ctx.halt_status, ctx.halt_reason, ctx.halt_code
    else:
        failed = [(k, v) for k, v in outcomes.items() if v.status == FAILED and not v.blocked]
        cancelled = [k for k, v in outcomes.items() if v.status == CANCELLED]
        if failed:
            status, reason, code = FAILED, f"step '{failed[0][0]}' failed: {failed[0][1].error}", "step_failed"
        elif cancelled:
            status, reason, code = CANCELLED, f"step '{cancelled[0]}' was cancelled", "cancelled"
        else:
            status, reason, code = COMPLETED, "", ""
    if status == FAILED and not internal and any(v.status == COMPLETED for v in outcomes.values()):
        # zenflow's runner: some steps completed and some failed is "partial"; "failed" is none completed. The
        # reason and code still say what failed (a step, a budget, a timeout).
        status = PARTIAL
    t = ctx.tokens
    return RunResult(status=status, reason=reason, code=code,
                     tokens={"prompt": t.prompt, "completion": t.completion, "total": t.total},
                     cost_usd=ctx.cost_usd, loops=ctx.state.loop_meta(),
                     steps=dict(outcomes), warnings=list(ctx.warnings), unpriced_models=sorted(ctx.unpriced_models))



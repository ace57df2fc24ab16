"""Where loop iterations happen: :func:`run_foreach` and :func:`run_repeat_until`.

forEach
    Items come from a static array or a CEL list. Workers (``maxConcurrency``;
    0/absent = all parallel up to :data:`FOREACH_PARALLEL_CAP`, announced by a
    ``message`` event) take the next index in order; each iteration runs the
    loop step itself (single-step, id ``loop[i]``) or its inner DAG (ids
    ``loop[i].inner``) with ``item`` and ``index`` bound. When an iteration
    fails, no further iteration starts (the rest are cancelled), running ones
    finish, and the loop fails. Results stay in item order.

repeat-until
    Iterations run one after another (ids ``loop.N`` single-step, ``loop.N.inner``
    multi-step, N zero-based) with ``iteration`` bound and the previous
    iteration's outputs and the judge's last verdict in the prompt. After each
    one, ``until`` is evaluated first (single-step: bare ``content``, ``result``,
    ``status``; multi-step: ``steps.<inner>``), then the ``untilAgent`` judge,
    which sees every iteration so far and fails open. ``delay`` waits between
    iterations, never after the last. Using up ``maxIterations`` completes the
    loop when it has no stop signal, and fails it when ``until`` or the judge
    never fired.

Run policies (:mod:`runtime.engine.policies`, not part of the document) add stop
rules checked after ``until`` and before the judge (``break_reason: policy``
with ``stop_rule``), and an iteration error policy: ``abort`` (default),
``retry`` (counts toward ``maxIterations``) or ``skip``.

What the loop step ends with, as upstream's runner gives it:

* forEach: ``content`` is the last completed item's (in item order, whatever
  ``outputMode`` says) and ``result`` is ``{iterations: [{id: "loop[i]", index,
  item, content, status}, ...]}`` for every item, readable from CEL
  (``steps.loop.result.iterations[0].content``); an item that gave a structured
  result or failed also has ``result`` or ``error`` there (ours).
* repeat-until, ``outputMode: last`` (the default): the last completed
  iteration's output, that is its last completed inner step's (document order).
* repeat-until, ``outputMode: cumulative``: every completed round as
  ``## Iteration N`` (one-based) followed by its output, or, with inner steps,
  by ``### <inner id>`` and that step's content for each inner step in document
  order, each block ending in a blank line; after a round the judge answered
  (without failing open) with text, ``## Judge Feedback (Iteration N)`` and that
  text. Steps that depend on such a loop get its output whole in their prompts
  (no per-dependency cut: :func:`runtime.engine.steps.step_outputs`).

The loop step's ``step_end`` carries the tokens (and cost) of all its
iterations and judges: the sum, made when the loop ends, of what its
iterations' steps recorded (rounds a checkpoint brought included) and what
each ``judge_verdict`` says its judge spent (:func:`loop_spent`).

Both emit ``iteration_start`` / ``iteration_end`` and finish with ``loop_end``
(``rounds_completed``, ``broke_early``, ``break_reason``, ``content``).
``broke_early`` is true whenever a stop signal, a failure or a stop ended the
loop, even on its last possible iteration; ``break_reason`` is one of
``until``, ``judge``, ``policy``, ``max_iterations``, ``items_exhausted``,
``failed``, ``stopped`` (a stop, an abort, a budget or a timeout).
"""
from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from designer.cel import CelError, evaluate_async
from runtime.engine.agent import run_judge
from runtime.engine.cel_words import describe
from runtime.engine.checkpoints import JUDGE_STEP, iteration_prefix
from runtime.engine.context import RunContext, Scope, duration, iteration_record
from runtime.engine.debug_inputs import round_pending
from runtime.engine.debugger import Pending, Release
from runtime.engine.fork_points import PENDING_INPUT
from runtime.engine.policies import for_loop
from runtime.engine.prompting import IterationRecord, LoopView, StepOutput
from runtime.engine.state import CANCELLED, COMPLETED, FAILED, LoopMeta, Outcome
from runtime.engine.summary import summarize
from runtime.engine.toolcalls import snapshot_iteration
from runtime.numbering import iteration_words

FOREACH_PARALLEL_CAP = 100
FOREACH, REPEAT = "forEach", "repeat-until"
HISTORY_LINES = 10  # one-line outcomes of earlier iterations shown in an iteration's prompt
_SINGLE_STEP_FIELDS = ("id", "agent", "instructions", "contextFiles", "model", "maxRetries")


def _body_step(step: dict) -> dict:
    """The loop step as its own single-step iteration (no loop, condition, timeout or retries)."""
    return {k: step[k] for k in _SINGLE_STEP_FIELDS if k in step}


async def _round_breakpoint(ctx: RunContext, step: dict, path: str, number: int, iscope: Scope,
                            deps: list[StepOutput]) -> Release | None:
    """The debugger asked before a round (or item): a skip, or None to run it (maybe with edited inputs)."""
    body = None if step["loop"].get("steps") else _body_step(step)

    async def pending() -> Pending:
        return round_pending(ctx, step, path, number, iscope, deps, body, ctx.debugger)

    return await ctx.debugger.before_round(ctx, step["id"], path, number, iscope.loop.has_item, pending)


def _iteration_data(out: Outcome) -> dict:
    data = {"status": out.status, "content": out.content, "result": out.result}
    if out.error:
        data["error"] = out.error
    return data


async def _run_iteration(ctx: RunContext, scope: Scope, step: dict, iscope: Scope, number: int, total: int,
                         path: str) -> tuple[Outcome, Mapping[str, Outcome]]:
    inner = step["loop"].get("steps")
    if inner:
        outs = await ctx.run_scope(ctx, iscope)
        return summarize(inner, outs), outs
    out = await ctx.run_step(ctx, iscope, _body_step(step), number, total, {}, path=path)
    return out, {}


def _iteration_scope(ctx: RunContext, scope: Scope, step: dict, prefix: str, variables: dict, view: LoopView,
                     deps: list[StepOutput]) -> Scope:
    inner = step["loop"].get("steps")
    return Scope(prefix=prefix, steps=inner or [_body_step(step)], base_dir=scope.base_dir, includes=scope.includes,
                 include_depth=scope.include_depth, variables={**scope.variables, **variables}, loop=view,
                 concurrency=scope.concurrency, outer_deps=deps)


async def _iteration_start(ctx: RunContext, path: str, kind: str, key: int, data: dict) -> None:
    """iteration_start, after forgetting what an earlier attempt of this iteration left in the run's state."""
    ctx.state.start_iteration(path, kind, key, iteration_prefix(path, key, kind))
    await ctx.emitter.emit("iteration_start", step_id=path, data=data)


async def _iteration_end(ctx: RunContext, path: str, kind: str, key: int, out: Outcome, began: float | None,
                         item: Any = None) -> None:
    """iteration_end with the iteration's working time (paused time left out), and the workspace's
    snapshot when the iteration changed it; a cancelled iteration (``began`` None) says only that."""
    data: dict = {"iteration": key} if kind == REPEAT else {"index": key, "item": item}
    if began is None:
        ctx.state.finish_iteration(path, kind, key, out, item)
        await ctx.emitter.emit("iteration_end", step_id=path, data={**data, "status": out.status})
        return
    label = iteration_prefix(path, key, kind)
    snapshot = await snapshot_iteration(ctx, label, label)
    data.update(_iteration_data(out))
    if snapshot is not None:
        data["snapshot"] = snapshot
    ctx.state.finish_iteration(path, kind, key, out, item)  # no await between the record and its event
    await ctx.emitter.emit("iteration_end", step_id=path, duration=max(ctx.active_time() - began, 0.0), data=data)


def _cost(cost: float | None) -> dict:
    return {"cost_usd": cost} if cost is not None else {}


def loop_spent(ctx: RunContext, step: dict, path: str) -> dict:
    """What the loop's iterations spent: each one's own steps (an agent, loop or include step records what its
    whole subtree spent) and each round's judge. Taken from the run's state when the loop ends: rounds a
    checkpoint brought count as they were, and an iteration run again counts its last attempt."""
    kind = FOREACH if "forEach" in step["loop"] else REPEAT
    record = ctx.state.loops.get(path)
    if record is None:
        return ctx.state.spent_by([], [])
    inner = step["loop"].get("steps")
    names = [f".{s['id']}" for s in inner] if inner else [""]
    paths = [iteration_prefix(path, key, kind) + name for key in record.iterations for name in names]
    verdicts = [e["verdict"] for e in record.iterations.values() if e.get("verdict")]
    return ctx.state.spent_by(paths, verdicts)


def _completed(outputs: list[Outcome]) -> int:
    return sum(1 for o in outputs if o.status == COMPLETED)


async def _finish(ctx: RunContext, path: str, kind: str, meta: LoopMeta, content: str) -> None:
    await ctx.emitter.emit("loop_end", step_id=path, data=ctx.state.finish_loop(path, kind, meta, content))


def _last(outputs: list[Outcome]) -> str:
    """The last completed output (``outputMode: last``, and a forEach's content in either mode)."""
    for out in reversed(outputs):
        if out is not None and out.status == COMPLETED:
            return out.content
    return ""


def _round_text(number: int, out: Outcome, inner: list[dict] | None, inner_outs: Mapping[str, Outcome]) -> str:
    """One completed round of a cumulative repeat-until, as upstream's runner writes it."""
    if not inner:
        return f"## Iteration {number + 1}\n{out.content}\n\n"
    parts = [f"## Iteration {number + 1}\n"]
    for s in inner:
        done = inner_outs.get(s["id"])
        if done is not None:
            parts.append(f"### {s['id']}\n{done.content}\n\n")
    return "".join(parts)


def _feedback_text(number: int, verdict: dict | None) -> str:
    """The judge's words on a round in a cumulative output: only from a judge that answered, and said something."""
    if verdict is None or verdict.get("failed_open") or not verdict.get("content"):
        return ""
    return f"## Judge Feedback (Iteration {number + 1})\n{verdict['content']}\n\n"


def _iterations(step_id: str, finished: list[Outcome], items: list) -> dict:
    """A forEach step's result: every item's id, index, item, content and status (and result or error)."""
    listed = []
    for i, out in enumerate(finished):
        entry = {"id": f"{step_id}[{i}]", "index": i, "item": items[i], "content": out.content, "status": out.status}
        if out.result is not None:
            entry["result"] = out.result
        if out.status == FAILED and out.error:
            entry["error"] = out.error
        listed.append(entry)
    return {"iterations": listed}


async def run_foreach(ctx: RunContext, scope: Scope, step: dict, path: str, items: list,
                      deps: list[StepOutput]) -> tuple[Outcome, dict]:
    """Run every item; the loop's outcome and what its items spent (``{"tokens", "cost_usd"}``)."""
    outcome = await _foreach(ctx, scope, step, path, items, deps)
    return outcome, loop_spent(ctx, step, path)


async def _foreach(ctx: RunContext, scope: Scope, step: dict, path: str, items: list,
                   deps: list[StepOutput]) -> Outcome:
    loop = step["loop"]
    emit = ctx.emitter.emit
    n = len(items)
    limit = loop.get("maxConcurrency") or 0
    if limit <= 0:
        limit = min(n, FOREACH_PARALLEL_CAP)
        if n > FOREACH_PARALLEL_CAP:
            await emit("message", step_id=path, message=f"{path}: {n} items with no maxConcurrency; running at most "
                       f"{FOREACH_PARALLEL_CAP} at a time (safety cap)",
                       data={"level": "info", "cap": FOREACH_PARALLEL_CAP, "items": n})
    records: list[Outcome | None] = [None] * n
    failure: list[int] = []
    policies = for_loop(ctx, path)
    on_error = policies.on_iteration_error if policies else "abort"
    next_index = 0
    # Items a checkpoint brought (runtime.engine.checkpoints) are not run again; a cancelled one is.
    # A fork may bring an item to run with an edited value instead (runtime.engine.fork_points).
    seeded = ctx.state.loops.get(path)
    edited: dict[int, object] = {}
    ran = list(items)  # the item each iteration ran with (a fork may have edited one)
    for i, entry in sorted(seeded.iterations.items()) if seeded is not None else []:
        if entry["status"] == PENDING_INPUT:
            edited[i] = ran[i] = entry.get("item")
            continue
        if i >= n or entry["status"] not in (COMPLETED, FAILED):
            continue
        records[i] = Outcome(entry["status"], entry["content"], entry["result"], entry.get("error"))
        ran[i] = entry.get("item", items[i])
        if entry["status"] == FAILED and on_error != "skip" and not failure:
            failure.append(i)

    async def iteration(i: int) -> Outcome:
        item = ran[i]
        prefix = f"{path}[{i}]"
        view = LoopView(loop_id=path, kind="forEach", iteration=i, item=item, has_item=True)
        iscope = _iteration_scope(ctx, scope, step, prefix, {"item": item, "index": i}, view, deps)
        skip = await _round_breakpoint(ctx, step, path, i, iscope, deps) if ctx.debugger is not None else None
        item = ran[i] = view.item  # an edit at the hold changes the item for this run
        await _iteration_start(ctx, path, FOREACH, i, {"index": i, "item": item})
        began = ctx.active_time()
        try:
            out = skip.outcome() if skip is not None else (await _run_iteration(ctx, scope, step, iscope, i, n, prefix))[0]
        except asyncio.CancelledError:
            records[i] = Outcome(CANCELLED, error="cancelled")
            await _iteration_end(ctx, path, FOREACH, i, Outcome(CANCELLED), None, item)
            raise
        await _iteration_end(ctx, path, FOREACH, i, out, began, item)
        return out

    async def worker() -> None:
        nonlocal next_index
        while not failure and next_index < n:
            await ctx.until_resumed()
            if failure or next_index >= n:
                return
            i = next_index
            next_index += 1
            if records[i] is not None:
                continue
            out = await iteration(i)
            if out.status == FAILED and on_error == "retry":
                await emit("message", step_id=path, message=f"{path}: {iteration_words(path, i, FOREACH)} failed ({out.error}); running it "
                           "again (run policy: retry)", data={"level": "warning", "policy": "retry", "index": i})
                out = await iteration(i)
            records[i] = out
            if out.status == FAILED and on_error == "skip":
                await emit("message", step_id=path, message=f"{path}: {iteration_words(path, i, FOREACH)} failed ({out.error}); skipped "
                           "(run policy: skip)", data={"level": "warning", "policy": "skip", "index": i})
            elif out.status != COMPLETED and not failure:
                failure.append(i)

    workers = [asyncio.create_task(worker()) for _ in range(min(limit, n))]
    try:
        await asyncio.gather(*workers)
    except asyncio.CancelledError:
        for w in workers:
            w.cancel()
        done = sum(1 for r in records if r is not None and r.status == COMPLETED)
        await _finish(ctx, path, FOREACH, LoopMeta(done, True, "stopped"), "")
        raise
    finished = [r if r is not None else Outcome(CANCELLED, error="not started: an earlier iteration failed") for r in records]
    done = sum(1 for r in finished if r.status == COMPLETED)
    result = _iterations(step["id"], finished, ran)
    if n and not done and not failure:
        await _finish(ctx, path, FOREACH, LoopMeta(0, True, "failed"), "")
        return Outcome(FAILED, "", result, error="every item failed")
    content = _last(finished)
    if failure:
        i = failure[0]
        await _finish(ctx, path, FOREACH, LoopMeta(done, True, "failed"), content)
        return Outcome(FAILED, content, result, error=f"{iteration_words(path, i, FOREACH)} failed: {finished[i].error}")
    await _finish(ctx, path, FOREACH, LoopMeta(done, False, "items_exhausted"), content)
    return Outcome(COMPLETED, content, result)


def _finished_rounds(ctx: RunContext, path: str, judged: bool) -> list[tuple[Outcome, dict | None]]:
    """The iterations of this loop already in the run's state (a run started from a checkpoint), in order,
    each with its verdict. A judged round that ended without its verdict (the checkpoint is its iteration_end) is
    not run again: only its judge is asked (the simulated script's replay counted its inner calls as given, and
    nothing finished is run or billed twice). Everything after the first gap runs again."""
    record = ctx.state.loops.get(path)
    if record is None:
        return []
    rounds: list[tuple[Outcome, dict | None]] = []
    for number in range(len(record.iterations)):
        entry = record.iterations.get(number)
        if entry is None or entry["status"] == CANCELLED:
            break
        verdict = entry.get("verdict")
        rounds.append((Outcome(entry["status"], entry["content"], entry["result"], entry.get("error")), verdict))
        if judged and entry["status"] == COMPLETED and verdict is None:
            break  # its judge is asked; no later round can have ended
    return rounds


async def _ask_judge(ctx: RunContext, scope: Scope, step: dict, path: str, it: int, max_iterations: int,
                     history: list[IterationRecord]) -> dict:
    """Ask the loop's judge about iteration ``it``; record and announce its verdict with what the judge spent."""
    asked = ctx.active_time()
    judge_path = f"{path}.{it}.{JUDGE_STEP}"
    ctx.state.tally(judge_path)
    try:
        verdict = await run_judge(ctx, scope, step, path, it, max_iterations, history)
    finally:
        tokens, cost = ctx.state.untally(judge_path)
    judged_ms = round(max(ctx.active_time() - asked, 0.0) * 1000, 3)
    ctx.state.judged(path, it, {**verdict, **_cost(cost)}, tokens)  # no await between the record and its event
    await ctx.emitter.emit("judge_verdict", step_id=path, agent=step["loop"]["untilAgent"], tokens=tokens,
                           data={"iteration": it, "done": verdict["done"], "reason": verdict["reason"],
                                 "duration_ms": judged_ms, "failed_open": verdict["failed_open"],
                                 "content": verdict["content"],
                                 **({"error": verdict["error"]} if verdict.get("error") else {}),
                                 **({"result": verdict["result"]} if verdict.get("result") is not None else {}),
                                 **_cost(cost)})
    return verdict


async def run_repeat_until(ctx: RunContext, scope: Scope, step: dict, path: str,
                           deps: list[StepOutput]) -> tuple[Outcome, dict]:
    """Run rounds until a stop signal; the loop's outcome and what its rounds and their judges spent."""
    outcome = await _repeat_until(ctx, scope, step, path, deps)
    return outcome, loop_spent(ctx, step, path)


async def _repeat_until(ctx: RunContext, scope: Scope, step: dict, path: str, deps: list[StepOutput]) -> Outcome:
    loop = step["loop"]
    emit = ctx.emitter.emit
    max_iterations = int(loop["maxIterations"])
    until = loop.get("until")
    judge = loop.get("untilAgent")
    delay = duration(loop.get("delay"))
    inner = loop.get("steps")
    cumulative = loop.get("outputMode") == "cumulative"
    chunks: list[str] = []  # the cumulative output, round by round (and the judge's feedback)
    history: list[IterationRecord] = []
    outputs: list[Outcome] = []
    feedback: dict | None = None
    reason = ""
    error = None
    stop_rule = ""
    policies = for_loop(ctx, path)
    previous_content: str | None = None
    # Rounds a checkpoint brought (runtime.engine.checkpoints): not run again, only decided again as they were.
    rounds = _finished_rounds(ctx, path, bool(judge))
    try:
        for it in range(max_iterations):
            replayed = rounds.pop(0) if rounds else None
            verdict: dict | None = None
            if replayed is not None:
                out, verdict = replayed
                inner_outs: Mapping[str, Outcome] = ctx.state.scope(
                    Scope(prefix=f"{path}.{it}", steps=[]).ns, [s["id"] for s in inner or []])
                outputs.append(out)
            else:
                if it > 0 and delay:
                    await ctx.sleep(delay)
                await ctx.until_resumed()
                shown = history[-HISTORY_LINES - 1:-1]
                view = LoopView(loop_id=path, kind="repeat-until", iteration=it, max_iterations=max_iterations,
                                previous=history[-1] if history else None, history=shown, feedback=feedback,
                                hidden=max(len(history) - 1 - len(shown), 0))
                iscope = _iteration_scope(ctx, scope, step, f"{path}.{it}", {"iteration": it}, view, deps)
                skip = await _round_breakpoint(ctx, step, path, it, iscope, deps) if ctx.debugger is not None else None
                await _iteration_start(ctx, path, REPEAT, it, {"iteration": it})
                began = ctx.active_time()
                try:
                    if skip is not None:  # skipped at its breakpoint: the round's output is the one typed
                        out, inner_outs = skip.outcome(), {}
                    else:
                        out, inner_outs = await _run_iteration(ctx, scope, step, iscope, it, max_iterations,
                                                               f"{path}.{it}")
                except asyncio.CancelledError:
                    await _iteration_end(ctx, path, REPEAT, it, Outcome(CANCELLED), None)
                    raise
                outputs.append(out)
                await _iteration_end(ctx, path, REPEAT, it, out, began)
            if out.status != COMPLETED:
                on_error = policies.on_iteration_error if policies else "abort"
                if on_error == "abort" or out.status != FAILED:
                    reason, error = "failed", f"{iteration_words(path, it, REPEAT)} {out.status}: {out.error}"
                    break
                if replayed is None:
                        await emit("message", step_id=path, message=f"{path}: {iteration_words(path, it, REPEAT)} failed ({out.error}); "
                               f"{'running it again' if on_error == 'retry' else 'going on'} (run policy: {on_error})",
                               data={"level": "warning", "policy": on_error, "iteration": it})
                if on_error == "skip":
                    history.append(iteration_record(it, out))
                continue
            record = iteration_record(it, out)
            if cumulative:
                chunks.append(_round_text(it, out, inner, inner_outs))
            if until:
                variables = {**scope.variables, "iteration": it}
                if inner:
                    variables["steps"] = {k: v.cel() for k, v in inner_outs.items()}
                else:
                    variables.update(steps={}, content=out.content, result=out.result, status=out.status)
                try:
                    fired = await evaluate_async(until, variables)
                    if not isinstance(fired, bool):
                        raise CelError(f"until must give a bool, got {type(fired).__name__}")
                except CelError as exc:
                    history.append(record)
                    reason, error = "failed", describe("until", until, variables, str(exc))
                    break
                if fired:
                    history.append(record)
                    reason = "until"
                    break
            if policies is not None:
                rule = policies.stop_rule(out.content, previous_content)
                if rule:
                    history.append(record)
                    reason, stop_rule = "policy", rule
                    break
            previous_content = out.content
            if judge:
                if verdict is None:
                    await ctx.until_resumed()  # paused during the round's last step: the judge waits for resume
                    verdict = await _ask_judge(ctx, scope, step, path, it, max_iterations, [*history, record])
                    if ctx.debugger is not None:
                        await ctx.debugger.after_verdict(ctx, step["id"], path, it, verdict)
                record.verdict = verdict
                feedback = verdict
                if cumulative:
                    chunks.append(_feedback_text(it, verdict))
                if verdict["done"] is True:
                    history.append(record)
                    reason = "judge"
                    break
            history.append(record)
    except asyncio.CancelledError:
        await _finish(ctx, path, REPEAT, LoopMeta(_completed(outputs), True, "stopped"),
                      "".join(chunks) if chunks else _last(outputs))
        raise
    content = "".join(chunks) if chunks else _last(outputs)
    good = [o for o in outputs if o.status == COMPLETED]
    result = good[-1].result if good else (outputs[-1].result if outputs else None)
    if not reason and outputs and not good:
        await _finish(ctx, path, REPEAT, LoopMeta(0, False, "failed"), content)
        return Outcome(FAILED, content, result, error=f"all {len(outputs)} iterations failed")
    if not reason:
        meta = LoopMeta(_completed(outputs), False, "max_iterations")
        await _finish(ctx, path, REPEAT, meta, content)
        silent = []
        if until:
            silent.append("until never became true")
        if judge:
            silent.append("judge agent never returned done")
        if silent:
            return Outcome(FAILED, content, result,
                           error=f"loop exhausted {max_iterations} iterations: {' and '.join(silent)}")
        return Outcome(COMPLETED, content, result)
    await _finish(ctx, path, REPEAT, LoopMeta(_completed(outputs), True, reason, stop_rule), content)
    if reason == "failed":
        return Outcome(FAILED, content, result, error=error)
    return Outcome(COMPLETED, content, result)

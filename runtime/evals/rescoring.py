"""Re-scoring the judge alone (issue #34): the labelled rounds' judge calls asked again, and the new verdicts held
against the same labels beside the old (runtime.evals.judging counts both).

Each labelled round with a verdict is asked once, with the request its judge was really sent (runtime.runs.playground:
the recorded prompt, tried in a context of its own) changed as asked: the judge agent's ``prompt`` (its instructions:
the system text is built again with it, as a run builds it), or what the playground takes (the whole ``system`` or
``user`` text, the loop's ``instructions``, ``model``, ``temperature``). Only the judge is called; the workers are not
run again and the runs are left as they were.

The calls go at most ``concurrency`` at once (default :data:`DEFAULT_CONCURRENCY`, at most :data:`MAX_CONCURRENCY`:
the provider's rate limit is the workspace's, and one re-scoring should not take all of it) on one event loop. The
rounds' requests are read first, in a few queries, and the keyed providers made once and shared by the calls (a
run's calls share them the same way), so the wall time is about calls / concurrency x one call's time. The rounds are
made ready a few runs at a time (:data:`READY_AT_ONCE`) on the request's thread while the calls of those before them
are asked: reading 600 runs' requests and building 1,000 turns first had added 0.9 s before the first call. The
simulated provider is made per call: a script answers every round as it would the round's first call.

Who may: runner or above, as for an experiment: it asks a judge and changes nothing of the workflow.
"""
from __future__ import annotations

import asyncio
import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync, sync_to_async

from accounts.workspaces import Need
from common.errors import BadRequest
from runtime.durability import run_files
from runtime.engine.playground import Turn
from runtime.engine.pricing import PriceBook
from runtime.engine.prompting import system_prompt
from runtime.evals.judging import Round, agreement, labelled_runs
from runtime.execution.worker import providers_for
from runtime.models import Run
from runtime.providers import Provider, close_all, get_provider
from runtime.runs import create, playground

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_RESCORED = 1000      # labelled rounds one re-scoring asks the judge of
DEFAULT_CONCURRENCY = 8  # judge calls at once
MAX_CONCURRENCY = 32
READY_AT_ONCE = 40        # rounds (whole runs) made ready per trip to the database, while earlier ones are asked


@dataclass
class Call:
    """One round's judge call, made ready (``turn``; ``files`` when its judge was offered workspace tools: the copy
    is made when the call goes) or refused before it left (``error``)."""

    round: Round
    run: Run
    turn: Turn | None = None
    error: str | None = None
    files: playground.Files | None = None


def judge_path(r: Round) -> str:
    return f"{r.step_id}.{r.iteration}.untilAgent"


def checked_changes(raw: dict[str, Any]) -> dict[str, Any]:
    """The playground's edits, and ``prompt``: the judge agent's new prompt (refused beside a whole ``system``)."""
    changes = playground.checked_edits({k: v for k, v in raw.items() if k != "prompt"})
    unknown = sorted(set(raw) - {"prompt", "system", "user", "instructions", "model", "temperature"})
    if unknown:
        raise BadRequest(f"edits: unknown field(s) {', '.join(unknown)} (known: instructions, model, prompt, system, "
                         "temperature, user)")
    prompt = raw.get("prompt")
    if prompt is not None:
        if not isinstance(prompt, str):
            raise BadRequest("prompt: must be text")
        if len(prompt) > playground.MAX_TEXT:
            raise BadRequest(f"prompt: at most {playground.MAX_TEXT} characters")
        if "system" in changes:
            raise BadRequest("prompt: give the judge's prompt or the whole system text, not both")
        changes["prompt"] = prompt
    return changes


def _concurrency(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CONCURRENCY:
        raise BadRequest(f"concurrency: a whole number from 1 to {MAX_CONCURRENCY}")
    return value


def rescore(user: User, workflow_id: int, experiment_id: int | None = None, edits: dict[str, Any] | None = None,
            script: Any = None, concurrency: Any = DEFAULT_CONCURRENCY) -> dict:
    """Ask the judge again on every labelled round (see the module's docstring): the agreement before and after,
    each round's old and new verdict, and what the new calls took."""
    # A runner may: it asks a judge, as an experiment or a run does, and changes nothing of the workflow.
    labels, runs, rounds = labelled_runs(user, workflow_id, experiment_id, Need.RUN, ("version", "workspace", "workflow"))
    at_once = _concurrency(concurrency)
    changes = checked_changes(dict(edits or {}))
    checked_script = create.check_script(script) if script is not None else None
    asked = sorted((r for r in rounds if (r.run_id, r.step_id, r.iteration) in labels and r.done is not None),
                   key=lambda r: (r.run_id, r.step_id, r.iteration))
    if not asked:
        raise BadRequest("labels: no labelled round with a verdict to ask the judge again: label rounds first")
    if len(asked) > MAX_RESCORED:
        raise BadRequest(f"experiment: {len(asked)} labelled rounds, more than {MAX_RESCORED} to ask again at once; "
                         "re-score one experiment at a time")
    shared: dict[str, dict[str, Provider]] = {}
    for run in runs.values():
        if run.provider not in shared:
            create.provider_key(run.workspace, run.provider, user=user, workflow=run.workflow.name)
            made = providers_for(run) if run.provider != "simulated" else {}
            made.pop("simulated", None)  # made per call (see the module's docstring)
            shared[run.provider] = made

    def ready(chunk: list[Round]) -> list[Call]:
        requests = playground.judge_requests(sorted({r.run_id for r in chunk}), {(r.run_id, judge_path(r)) for r in chunk})
        snapshots = _snapshots(chunk, requests)
        return [_prepare(r, runs[r.run_id], requests.get((r.run_id, judge_path(r))), changes, snapshots) for r in chunk]

    calls, answers = async_to_sync(_ask_all)(_chunks(asked, first=at_once), ready, shared, checked_script, at_once, playground.prices())
    after, rows = [], []
    tokens, cost = 0, 0.0
    for call, answer in zip(calls, answers, strict=True):
        r = call.round
        result = (answer or {}).get("result")
        done = result.get("done") if isinstance(result, dict) else None
        now = done if isinstance(done, bool) else None
        after.append(replace(r, done=now))
        tokens += int((answer or {}).get("tokens") or 0)
        cost += float((answer or {}).get("cost_usd") or 0.0)
        rows.append({"run_id": r.run_id, "step_id": r.step_id, "iteration": r.iteration,
                     "good": labels[(r.run_id, r.step_id, r.iteration)], "was": r.done, "now": now,
                     "reason": str(result.get("reason") or "")[:500] if isinstance(result, dict) else "",
                     "error": call.error or (answer or {}).get("error")})
    return {"before": agreement(asked, labels), "after": agreement(after, labels),
            "calls": sum(1 for a in answers if a is not None), "concurrency": at_once, "tokens": tokens,
            "cost_usd": round(cost, 8), "rounds": rows}


def _chunks(asked: list[Round], first: int = READY_AT_ONCE) -> list[list[Round]]:
    """``asked`` (sorted by run) in runs of at least :data:`READY_AT_ONCE` rounds, never splitting a run; the first
    of at least ``first`` (the calls at once: the first calls go as soon as there are enough to fill the slots)."""
    chunks: list[list[Round]] = [[]]
    for r in asked:
        wanted = first if len(chunks) == 1 else READY_AT_ONCE
        if len(chunks[-1]) >= wanted and chunks[-1][-1].run_id != r.run_id:
            chunks.append([])
        chunks[-1].append(r)
    return [c for c in chunks if c]


def _snapshots(asked: list[Round], requests: dict[tuple[str, str], dict]) -> dict[tuple[str, int], int | None]:
    """The workspace snapshot each round's judge request saw, by (run id, request seq): one read for them all."""
    seqs: dict[str, list[int]] = {}
    for r in asked:
        request = requests.get((r.run_id, judge_path(r)))
        if request is not None and playground.wants_workspace((request.get("data") or {}).get("tools") or []):
            seqs.setdefault(r.run_id, []).append(int(request.get("seq") or 0))
    return run_files.snapshots_at(seqs) if seqs else {}


def _prepare(r: Round, run: Run, request: dict | None, changes: dict[str, Any],
             snapshots: dict[tuple[str, int], int | None]) -> Call:
    """The round's judge call as recorded, changed; the files of its workspace copy when the judge was offered
    workspace tools."""
    if run.active:
        return Call(r, run, error=f"run {run.id} is still {run.status}: its rounds are asked once it has ended")
    if request is None:
        return Call(r, run, error="the judge's request of this round was not recorded")
    sent = playground.recorded(run, judge_path(r), request)
    turn = playground.turn_for(run, sent, {k: v for k, v in changes.items() if k != "prompt"})
    if "prompt" in changes:
        turn = replace(turn, system=system_prompt(turn.agent_name, turn.agent, changes["prompt"],
                                                  bool(turn.agent.get("resultSchema"))))
    files = None
    if playground.wants_workspace(sent["tools"]):
        files = playground.snapshot_files(run, snapshots.get((r.run_id, int(request.get("seq") or 0))))
    return Call(r, run, turn=turn, files=files)


async def _ask_all(chunks: list[list[Round]], ready: Any, shared: dict[str, dict[str, Provider]], script: Any,
                   at_once: int, prices: PriceBook) -> tuple[list[Call], list[dict | None]]:
    """Every chunk's calls, made ready by ``ready`` (the database's work, on the caller's thread) one chunk after
    another while the calls already made ready are asked, at most ``at_once`` at a time: the calls in order and
    their answers (None for those refused before)."""
    gate = asyncio.Semaphore(at_once)

    async def one(call: Call) -> dict | None:
        if call.turn is None:
            return None
        folder: Path | None = None
        try:
            async with gate:
                tools = None
                if call.files is not None and call.files.number is None:  # empty: made only if a tool needs it
                    folder, tools = playground.workspace_from(call.run, call.files, [])
                elif call.files is not None:  # the snapshot's files written: off the loop
                    folder, tools = await asyncio.to_thread(playground.workspace_from, call.run, call.files, [])
                simulated = get_provider("simulated", script=call.run.script if script is None else script)
                try:
                    return await playground.ask(call.run, call.turn, {**shared[call.run.provider], "simulated": simulated},
                                                prices=prices, tools=tools)
                finally:
                    await simulated.aclose()
                    if tools is not None:
                        await tools.close()
        finally:
            if folder is not None and os.path.lexists(folder):  # outside the slot: the next call need not wait
                await asyncio.to_thread(shutil.rmtree, folder, True)

    calls: list[Call] = []
    asking: list[asyncio.Task[dict | None]] = []
    try:
        for chunk in chunks:
            made_ready = await sync_to_async(ready)(chunk)  # thread-sensitive: the request's thread and connection
            calls.extend(made_ready)
            asking.extend(asyncio.create_task(one(c)) for c in made_ready)
        return calls, list(await asyncio.gather(*asking))
    finally:
        for task in asking:
            task.cancel()  # a chunk that failed to be made ready: the calls already going are not left behind
        await asyncio.gather(*asking, return_exceptions=True)
        for made in shared.values():
            await close_all(made)

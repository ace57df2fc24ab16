"""Where a run goes on from: after its worker was lost (resume), or from another run's state (a fork).

A run whose worker stops beating is not failed while it may resume (``RESUME_LOST_RUNS``, at most
``RUN_MAX_RESUMES`` times): its state at the last boundary its events reached (:mod:`runtime.engine.checkpoints`)
becomes its start, the events after that boundary are marked superseded (kept, never deleted) with the workspace
snapshots they announced, its workspace is put back as the snapshot at that boundary left it (again where it
executes next: :func:`runtime.durability.run_files.build_run_tools`), and it is queued again for any live worker (the server
itself on the inline backend). What it had spent, superseded attempts included, still counts against its
budgets. The engine then skips what is finished and numbers its events on from the last one stored, so
watchers see one stream, with a message saying where it resumed and why.
"""
from __future__ import annotations

import json
import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.types import RunId
from runtime.contract import locate
from runtime.durability import endings, run_files
from runtime.engine.checkpoints import JUDGE_STEP, Checkpoint, boundaries, fold
from runtime.engine.fork_points import state_at
from runtime.engine.resume_points import RESUMED_KEY, last_alive, notice_of, open_steps, place_of, worked_seconds
from runtime.engine.state import CANCELLED
from runtime.live.recorder import event_json
from runtime.models import Run, RunEvent, RunStatus
from runtime.providers import Provider
from runtime.providers.script import Script
from runtime.providers.simulated import COORDINATOR, script_keys

log = logging.getLogger(__name__)


def start_of(run: Run) -> tuple[Checkpoint | None, dict | None]:
    """The checkpoint a run starts from (None: from the beginning), and the resume notice when it resumed."""
    data = run.start_checkpoint
    if not data:
        return None, None
    return Checkpoint.from_dict(data), notice_of(data)


def asked_again(path: str, start: Checkpoint | None) -> bool:
    """Whether the engine, starting from ``start``, asks the model again for step ``path``: a step the checkpoint
    does not hold as finished runs again, and so does every step of a loop round it does not hold (a round half
    done when the run stopped starts clean: :meth:`runtime.engine.registry.RunState.start_iteration`), and the
    judge of a round that ended without its verdict."""
    if start is None:
        return True
    where = locate(path)
    if where is None or "loop" not in where:
        return path not in start.steps
    loop = start.loops.get(where["loop"])
    key, field = (where["iteration"], "iteration") if "iteration" in where else (where["item"], "index")
    entry = next((i for i in (loop or {}).get("iterations", []) if i.get(field) == key), None)
    if entry is None or entry["status"] == CANCELLED:
        return True
    return where.get("inner") == JUDGE_STEP and not entry.get("verdict")


def replay_script(provider: Provider, run: Run) -> int:
    """A simulated provider's script goes on where the run's earlier calls left it (a resumed run, a fork): each
    model request stored up to the run's start took the next reply for its key, unless the engine asks it again
    (:func:`asked_again`), which then takes that same reply. Returns the calls counted."""
    script = getattr(provider, "script", None)
    if script is None or not run.start_seq:
        return 0
    start, _notice = start_of(run)
    texts = RunEvent.objects.filter(run=run, type="agent_turn", seq__lte=run.start_seq).order_by("seq").values_list(
        "event_json", flat=True)
    counted = 0
    for event in map(json.loads, texts):
        data = event.get("data") or {}
        if data.get("phase") != "request" or (data.get("provider") or "simulated") != "simulated":
            continue
        path = event.get("stepId") or ""
        if not path and event.get("agent") == COORDINATOR:
            continue  # the coordinator goes on from its conversation in the checkpoint: counted below
        if asked_again(path, start):
            continue
        script.count_given(script_keys(path, path.rsplit(".", 1)[-1] if path else None, event.get("agent")))
        counted += 1
    return counted + replay_coordinator(script, start)


def replay_coordinator(script: Script, start: Checkpoint | None) -> int:
    """The coordinator's script goes on where its conversation in the checkpoint left it: each reply there was given,
    to a request whose latest user message (what a ``when`` reply looks for) is the last one before it. A request
    the checkpoint holds unanswered is asked again, and takes the reply it would have had. Returns the replies."""
    state = (start.mail.get("coordinator") if start is not None else None) or {}
    said, counted = "", 0
    for message in state.get("messages") or []:
        if message.get("role") == "user":
            said = message.get("content") or ""
        elif message.get("role") == "assistant":
            script.count_given(script_keys(COORDINATOR, COORDINATOR, COORDINATOR), said)
            counted += 1
    return counted


def hand_back(run_id: RunId, reason: str, upto: int) -> bool:
    """A run its worker gives back on purpose (shutting down): queued to go on from its last boundary at or before
    event ``upto`` (what came after, such as the steps cancelled by the stop itself, is superseded). Not counted
    against RUN_MAX_RESUMES: nothing crashed. False when the run had already ended."""
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.status not in (RunStatus.RUNNING, RunStatus.PAUSED):
            return False
        _requeue(run, reason, upto, attempt=run.resumes)
    log.warning("run %s handed back (%s): it goes on after event %s", run_id, reason, run.start_seq)
    return True


def _requeue(run: Run, reason: str, upto: int | None, attempt: int) -> None:
    events = load_events(run.pk)
    at = _last_boundary([e for e in events if upto is None or e["seq"] <= upto])
    start, _ = start_of(run)
    # A run that itself started from a checkpoint (a fork with an edited input, a resume) folds on from it, so
    # that its edits are kept; its own events after that start are what it did.
    checkpoint = state_at([e for e in events if e["seq"] <= at], at, start, run.start_seq)
    # What superseded attempts spent was spent: it counts against the budgets as it does on the bill.
    checkpoint.spent = state_at(events, events[-1]["seq"] if events else 0, start, run.start_seq).spent
    mark_superseded(run.pk, at)
    # The snapshots those events announced are superseded with them; ones whose event was lost are dropped.
    run_files.forget_unannounced(run.pk)
    kept = [e for e in events if e["seq"] <= at]
    # Where it went on (a page says "after round 3 of write"), and when the steps still open there first started:
    # their durations span the resume (runtime.engine.resume_points).
    notice = {"reason": reason, "attempt": attempt, "from_seq": at, "of": settings.RUN_MAX_RESUMES,
              "after": place_of(kept, at), "started": open_steps(kept),
              "worked": worked_seconds(kept, last_alive(events, run.heartbeat_at))}
    run.start_checkpoint = {**checkpoint.as_dict(), RESUMED_KEY: notice}
    run.start_seq, run.resumes = at, attempt
    run.status, run.worker, run.heartbeat_at = RunStatus.QUEUED, "", None
    held = []
    if run.debug_hold is not None:  # held at a breakpoint: it goes on to that breakpoint, which holds it again
        run.paused_ms += _paused_for(run, timezone.now())
        run.debug_hold, run.paused_at = None, None
        held = ["debug_hold", "paused_at", "paused_ms"]
    elif run.paused_at:  # it goes on paused, as it was left
        run.control_request = "pause"
    run.save(update_fields=["start_checkpoint", "start_seq", "resumes", "status", "worker", "heartbeat_at", "control_request",
                            *held])
    # Best effort: the run is queued whatever its files here. Where it executes its files are put back again
    # (run_files.build_run_tools), and what cannot be is said on the run then. A savepoint, so that a database
    # error while reading the snapshot leaves the requeue itself to commit.
    try:
        with transaction.atomic():
            restore_workspace(run, at)
    except Exception:
        log.exception("run %s: its workspace could not be put back as event %s left it; it is put back again where "
                      "it executes", run.pk, at)


def resume_or_fail(run_id: RunId, reason: str, worker: str | None = None) -> str:
    """A run whose worker was lost: queued to resume from its last boundary, or failed for good (the
    setting is off, or it already resumed ``RUN_MAX_RESUMES`` times). Returns "resumed", "failed", "ended" (its
    stored ``workflow_end`` stands: :mod:`runtime.durability.endings`) or "gone" (it had finished or was already
    handled, or, with ``worker``, another worker holds it now)."""
    with transaction.atomic():
        run = Run.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.status not in (RunStatus.RUNNING, RunStatus.PAUSED):
            return "gone"
        if worker is not None and run.worker != worker:
            return "gone"
        now = timezone.now()
        paused = {"paused_ms": run.paused_ms + _paused_for(run, now), "paused_at": None} if run.paused_at else {}
        ended = endings.stored_end(run.pk)
        if ended is not None:  # it died after storing its end, before marking the run final: the end stands
            Run.objects.filter(pk=run_id).update(**endings.final_fields(ended, now), **paused)
            log.warning("run %s: %s after storing its end; it stands (%s)", run_id, reason, ended.status)
            return "ended"
        if not settings.RESUME_LOST_RUNS or run.resumes >= settings.RUN_MAX_RESUMES:
            tail = f" (it had resumed {run.resumes} times, the most allowed)" if run.resumes else ""
            Run.objects.filter(pk=run_id).update(status=RunStatus.FAILED, reason=f"{reason}{tail}", finished_at=now, **paused)
            return "failed"
        attempt = run.resumes + 1
        _requeue(run, reason, None, attempt)
    log.warning("run %s: %s; resuming after event %s (resume %s of %s)", run_id, reason, run.start_seq, attempt,
                settings.RUN_MAX_RESUMES)
    return "resumed"


def mark_superseded(run_id: RunId, after: int) -> int:
    """Mark the run's events after ``after`` superseded, in the column (what readers filter on) and in the event's
    own JSON (what the API and the websockets send: a page marks them without knowing the column). Returns how many."""
    rows = list(RunEvent.objects.filter(run_id=run_id, seq__gt=after, superseded=False).only("pk", "event_json"))
    for row in rows:
        event = json.loads(row.event_json)
        event["superseded"] = True
        row.event_json, row.superseded = event_json(event), True
    RunEvent.objects.bulk_update(rows, ["event_json", "superseded"], batch_size=500)
    return len(rows)


def _paused_for(run: Run, now: datetime) -> int:
    return int((now - run.paused_at).total_seconds() * 1000) if run.paused_at else 0


def _last_boundary(events: list[dict]) -> int:
    found = boundaries(events)
    return found[-1].seq if found else 0


def restore_workspace(run: Run, seq: int) -> int:
    """Put the run's workspace back as its last own snapshot at or before event ``seq`` left it (files a later
    attempt wrote are removed, changed ones rewritten, nothing written through a link an agent left; files too big
    to have been kept stay as they are). Returns the number of files written or removed; 0 when the run had recorded
    no files by then (it then starts from its seed again: :func:`runtime.durability.run_files.build_run_tools`). Files that
    could not be (an agent made their folder read-only) are skipped and logged (:func:`runtime.durability.run_files.put_back`)."""
    number = run_files.snapshot_at(run.pk, seq)
    return run_files.put_back(run, number) if number is not None else 0


def load_events(run_id: RunId) -> list[dict]:
    """A stored run's events in ``seq`` order."""
    texts = RunEvent.objects.filter(run_id=run_id).order_by("seq").values_list("event_json", flat=True)
    return [json.loads(t) for t in texts]


def checkpoint_of_run(run_id: RunId, upto: int | None = None) -> Checkpoint:
    """The checkpoint of a stored run after event ``upto`` (default: its last event)."""
    return fold(load_events(run_id), upto)

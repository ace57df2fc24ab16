"""What a resumed run tells about where it went on, read from the events stored before the resume.

Pure Python on stored events (plain dicts in ``seq`` order). Two facts, both kept in the run's resume notice
(:mod:`runtime.durability.continuation`) and so on its ``message`` event and its record:

* **where** it went on: the boundary it resumed after (a step, a round or an item that had ended), as data
  a page puts in words ("after round 3 of write");
* **when each step still open there first started**, and **how long it had worked** by the time the lost
  worker was last heard of: a loop half way through its rounds is started again by the engine, which carries
  on its duration from that work instead of from the resume, and never counts the time no worker ran it. Steps
  inside an iteration that runs again are left out: the iteration starts clean, and so do they.

Superseded events (an earlier attempt's, past the boundary it resumed from) are left out: they did not happen
to the run that went on.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from runtime.engine.checkpoints import boundary_of, iteration_prefix, under

RESUMED_KEY = "resumed"   # beside the checkpoint in Run.start_checkpoint: why, where and how often it resumed


def notice_of(start_checkpoint: Any) -> dict | None:
    """The resume notice kept beside a run's start checkpoint; None when the run never resumed."""
    notice = start_checkpoint.get(RESUMED_KEY) if isinstance(start_checkpoint, dict) else None
    return notice if isinstance(notice, dict) else None


def public_notice(notice: dict | None) -> dict | None:
    """Why and where a run went on after losing its worker, as readers see it (``{reason, attempt, of, from_seq,
    after}``). The open steps' start times and work are the engine's, not a reader's."""
    return None if notice is None else {key: value for key, value in notice.items() if key not in ("started", "worked")}


def place_of(events: list[dict], seq: int) -> dict | None:
    """What event ``seq`` closed, shaped as a fork point is: ``{kind, step, iteration?}`` with kind ``step``, ``round``
    (a repeat-until round, ended or judged) or ``item`` (a forEach item), ``iteration`` 0-based as in the events;
    None when ``seq`` closed nothing (0: the run went on from its start)."""
    for event in events:
        if event.get("seq") != seq:
            continue
        boundary = boundary_of(event)
        if boundary is None:
            return None
        if boundary.kind == "step" or boundary.iteration is None:
            return {"kind": "step", "step": boundary.path}
        data = event.get("data") or {}
        kind = "item" if boundary.kind == "iteration" and data.get("iteration") is None else "round"
        return {"kind": kind, "step": boundary.path, "iteration": boundary.iteration}
    return None


def open_steps(events: list[dict]) -> dict[str, str]:
    """Steps started and not ended in ``events``: namespaced id -> the ``timestamp`` of their first start."""
    started: dict[str, str] = {}
    for event in events:
        if event.get("superseded"):
            continue
        kind, path = event.get("type"), event.get("stepId") or ""
        if kind == "step_start" and path and path not in started:
            # A resumed step's own start names the first one: a second resume keeps counting from there.
            started[path] = (event.get("data") or {}).get("started_at") or event.get("timestamp") or ""
        elif kind in ("step_end", "step_skipped"):
            started.pop(path, None)
        elif kind == "iteration_start":
            data = event.get("data") or {}
            loop_kind, key = ("repeat-until", data["iteration"]) if data.get("iteration") is not None \
                else ("forEach", data.get("index") or 0)
            prefix = iteration_prefix(path, int(key), loop_kind)
            for inner in [p for p in started if under(p, prefix)]:
                del started[inner]
    return {path: ts for path, ts in started.items() if ts}


def last_alive(events: list[dict], heartbeat: datetime | None) -> float:
    """When a lost worker was last heard of: its last heartbeat or its last event, whichever came later (POSIX)."""
    stamps = [_seconds(e.get("timestamp")) for e in events[-50:]]
    return max([s for s in stamps if s is not None] + [heartbeat.timestamp() if heartbeat is not None else 0.0])


def worked_seconds(kept: list[dict], alive_until: float) -> dict[str, float]:
    """Steps open in ``kept`` (the events up to the boundary a run resumes from) -> the seconds they had worked
    when their worker was last heard of (:func:`last_alive`): earlier attempts' work (their resumed start's
    ``carried_s``) plus this attempt's, from its start. The time between the loss and the resume is in none of it."""
    since: dict[str, tuple[float, float]] = {}  # path -> (this attempt's start, seconds worked before it)
    for event in kept:
        stamp = _seconds(event.get("timestamp"))
        if event.get("superseded"):
            continue
        kind, path = event.get("type"), event.get("stepId") or ""
        carried = (event.get("data") or {}).get("carried_s") if kind == "step_start" else None
        if kind == "step_start" and path and stamp is not None and (path not in since or carried is not None):
            # A resumed start (it carries the work before it) takes over from the first attempt's.
            since[path] = (stamp, float(carried) if isinstance(carried, int | float) else 0.0)
        elif kind in ("step_end", "step_skipped"):
            since.pop(path, None)
        elif kind == "iteration_start":
            data = event.get("data") or {}
            loop_kind, key = ("repeat-until", data["iteration"]) if data.get("iteration") is not None \
                else ("forEach", data.get("index") or 0)
            prefix = iteration_prefix(path, int(key), loop_kind)
            for inner in [p for p in since if under(p, prefix)]:
                del since[inner]
    return {path: round(before + max(0.0, alive_until - start), 3) for path, (start, before) in since.items()}


def _seconds(text: Any) -> float | None:
    try:
        return datetime.fromisoformat(str(text).replace("Z", "+00:00")).timestamp() if text else None
    except ValueError:
        return None


def first_starts(notice: dict) -> dict[str, tuple[float, str, float | None]]:
    """The notice's open steps as (POSIX seconds, for the engine's clock; the start as its events wrote it; the
    seconds it had worked, when the notice says); a start it cannot read is left out (that step is then timed from
    the resume, as before)."""
    out: dict[str, tuple[float, str, float | None]] = {}
    worked = notice.get("worked") or {}
    for path, text in (notice.get("started") or {}).items():
        stamp = _seconds(text)
        if stamp is None:
            continue
        done = worked.get(path)
        out[path] = (stamp, str(text), float(done) if isinstance(done, int | float) else None)
    return out

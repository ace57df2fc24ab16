"""Reading runs: the list with its filters and pages, events after a seq, iterations, history, metrics."""
from __future__ import annotations

import base64
import binascii
import json
import statistics
import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Q

from accounts.workspaces import Need, member_workspace_ids, require
from common.dates import moment
from designer.errors import BadRequest
from runtime.contract import locate
from runtime.models import Run, RunEvent, RunIteration, RunStatus
from runtime.providers import names as provider_names

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_EVENTS_PAGE = 5000

# ---------------------------------------------------------------- the runs list: filters and pages

RUN_PAGE_SIZE = 50
MAX_RUN_PAGE_SIZE = 200


@dataclass(frozen=True)
class RunFilters:
    statuses: tuple[str, ...] = ()    # any of these
    workflow_id: int | None = None
    providers: tuple[str, ...] = ()   # any of these
    q: str = ""                       # a case-insensitive piece of the workflow's name
    created_after: datetime | None = None   # created at or after
    created_before: datetime | None = None  # created before


@dataclass(frozen=True)
class RunPage:
    runs: list[Run]
    total: int                 # how many runs pass the filters, on every page
    next_cursor: str | None    # `before` for the next page; None on the last


def names_in(field: str, raw: str | None, known: list[str]) -> tuple[str, ...]:
    """A comma-separated query parameter (`status=failed,cancelled`), each name checked against ``known``."""
    names = tuple(dict.fromkeys(n.strip() for n in (raw or "").split(",") if n.strip()))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise BadRequest(f"`{field}`: unknown {field} {', '.join(f'`{n}`' for n in unknown)} (known: {', '.join(known)})")
    return names


def run_filters(*, status: str | None = None, workflow_id: int | None = None, provider: str | None = None, q: str | None = None,
                created_after: str | None = None, created_before: str | None = None) -> RunFilters:
    """The list's filters from the query's text, each refused naming its parameter."""
    return RunFilters(
        statuses=names_in("status", status, list(RunStatus.values)), workflow_id=workflow_id,
        providers=names_in("provider", provider, provider_names()), q=(q or "").strip(),
        created_after=moment("created_after", created_after), created_before=moment("created_before", created_before, day_end=True))


def cursor_of(run: Run) -> str:
    """Where a page ended: the last run's (created_at, id), URL-safe. Deleting that run does not break it."""
    raw = f"{run.created_at.isoformat()}|{run.pk}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_cursor(cursor: str) -> tuple[datetime, uuid.UUID]:
    try:
        at, _, run_id = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().partition("|")
        when = datetime.fromisoformat(at)
        if when.tzinfo is None:
            raise ValueError(at)
        return when, uuid.UUID(run_id)
    except (ValueError, UnicodeDecodeError, binascii.Error):
        raise BadRequest(f"`before`: {cursor[:80]!r} is not a cursor this list gave (X-Next-Cursor)") from None


def list_runs(user: User, workspace_id: int | None = None, filters: RunFilters = RunFilters(), *, limit: int = RUN_PAGE_SIZE,
              before: str | None = None) -> RunPage:
    """The runs the user may read (one workspace, checked, or every workspace they are in) that pass the
    filters, newest first, a page of ``limit`` after the cursor ``before``.

    Keyset pages (created_at, then id, both descending) cost the same at the 10,000th run as at the first,
    and a run started while someone pages moves nothing under them: no page repeats or skips a run."""
    if not 1 <= limit <= MAX_RUN_PAGE_SIZE:
        raise BadRequest(f"`limit`: {limit} is out of range (1 to {MAX_RUN_PAGE_SIZE})")
    if workspace_id is not None:
        require(user, workspace_id, Need.READ, "workspace")
        rows = Run.objects.filter(workspace_id=workspace_id)
    else:
        rows = Run.objects.filter(workspace_id__in=member_workspace_ids(user))
    if filters.statuses:
        rows = rows.filter(status__in=filters.statuses)
    if filters.workflow_id:
        rows = rows.filter(workflow_id=filters.workflow_id)
    if filters.providers:
        rows = rows.filter(provider__in=filters.providers)
    if filters.q:
        rows = rows.filter(workflow__name__icontains=filters.q)
    if filters.created_after is not None:
        rows = rows.filter(created_at__gte=filters.created_after)
    if filters.created_before is not None:
        rows = rows.filter(created_at__lt=filters.created_before)
    total = rows.count()
    if before:
        at, run_id = _read_cursor(before)
        rows = rows.filter(Q(created_at__lt=at) | Q(created_at=at, pk__lt=run_id))
    # One more than the page: whether there is a next page, without a second query.
    found = list(rows.labelled().order_by("-created_at", "-pk")[:limit + 1])
    more = len(found) > limit
    shown = found[:limit]
    return RunPage(runs=shown, total=total, next_cursor=cursor_of(shown[-1]) if more else None)


def events_after(run: Run, after: int, limit: int = MAX_EVENTS_PAGE, types: list[str] | None = None,
                 step: str | None = None, before: int | None = None) -> list[dict]:
    """A page of the run's events in ``seq`` order (the newest ``limit`` before ``before`` when it is given),
    optionally of some types or of one step and what runs inside it (its id, or ids under ``step.`` / ``step[``)."""
    rows = RunEvent.objects.filter(run=run, seq__gt=after)
    if types:
        rows = rows.filter(type__in=types)
    if step:
        rows = rows.filter(Q(step_id=step) | Q(step_id__startswith=step + ".") | Q(step_id__startswith=step + "["))
    limit = max(1, min(limit, MAX_EVENTS_PAGE))
    if before is not None:
        texts = list(rows.filter(seq__lt=before).order_by("-seq").values_list("event_json", flat=True)[:limit])[::-1]
    else:
        texts = list(rows.order_by("seq").values_list("event_json", flat=True)[:limit])
    return [json.loads(text) for text in texts]


def iterations(run: Run, step: str | None = None, index: int | None = None, iteration: int | None = None,
               limit: int | None = None, offset: int = 0) -> list[dict]:
    """The run's iterations, or one loop's (``step``), or one item (``index``) or round (``iteration``) of it."""
    rows = RunIteration.objects.filter(run=run)
    if step is not None:
        rows = rows.filter(step_id=step)
    if index is not None:
        rows = rows.filter(index=index)
    if iteration is not None:
        rows = rows.filter(iteration=iteration)
    rows = rows.order_by("step_id", "iteration", "index")
    if limit is not None:
        rows = rows[offset:offset + limit]
    return [
        {"step_id": r.step_id, "iteration": r.iteration, "index": r.index, "item": r.item, "status": r.status,
         "content": r.content, "result": r.result, "verdict": r.verdict, "tokens": r.tokens, "duration_ms": r.duration_ms}
        for r in rows
    ]


def history(run: Run) -> list[dict]:
    """Iteration by iteration, in the order they started."""
    return sorted(iterations(run), key=lambda r: (r["step_id"], r["iteration"] if r["iteration"] is not None else r["index"] or 0))


def metrics(run: Run) -> dict:
    steps: dict[str, dict] = defaultdict(lambda: {"tokens": 0, "duration_ms": None, "status": None})
    texts = RunEvent.objects.filter(run=run, type__in=("step_end", "agent_turn", "judge_verdict")).values_list("event_json", flat=True)
    pinned = 0
    for event in (json.loads(t) for t in texts):
        if event.get("type") == "judge_verdict":
            # The judge's turns run under `<loop>.<iteration>.untilAgent`: give that row a time and a status.
            data = event.get("data") or {}
            judge = steps[f"{event.get('stepId') or ''}.{data.get('iteration')}.untilAgent"]
            judge["duration_ms"] = data.get("duration_ms")
            judge["status"] = "failed open" if data.get("failed_open") else "completed"
            judge.update(kind="judge", loop=event.get("stepId") or "", iteration=data.get("iteration"))
            continue
        step_id = event.get("stepId") or ""
        if not step_id and event.get("agent") == "coordinator":  # the coordinator's turns: a row of their own
            step_id = "coordinator"
            steps[step_id]["kind"] = "coordinator"
        step = steps[step_id]
        tokens = event.get("tokens") or {}
        if event.get("type") == "agent_turn" and (event.get("data") or {}).get("pinned") is True \
                and (event.get("data") or {}).get("phase") == "response":
            step["pinned"] = True  # answered by a pinned output: no provider call, no tokens (runtime.runs.pins)
            pinned += 1
        if event.get("type") == "agent_turn" and isinstance(tokens, dict):
            step["tokens"] += int(tokens.get("total") or 0)
            where = event.get("where") or {}
            top = where.get("loop") or where.get("include") or step_id
            if top != step_id:  # inner and namespaced steps count toward their top-level step too
                steps[top]["tokens"] += int(tokens.get("total") or 0)
        if event.get("type") == "step_end":
            step["duration_ms"] = event.get("durationMs")
            step["status"] = (event.get("data") or {}).get("status")
    loops: dict[str, dict] = {}
    for row in RunIteration.objects.filter(run=run):
        loop = loops.setdefault(row.step_id, {"iterations": 0, "durations_ms": [], "tokens": 0})
        loop["iterations"] += 1
        loop["tokens"] += row.tokens
        if row.duration_ms is not None:
            loop["durations_ms"].append(row.duration_ms)
    for step_id, loop in loops.items():
        durations = loop.pop("durations_ms")
        loop["duration_ms"] = {"total": sum(durations), "mean": statistics.fmean(durations) if durations else None,
                               "max": max(durations) if durations else None}
        loop.update((run.loops or {}).get(step_id, {}))
    total = run.tokens_prompt + run.tokens_completion
    elapsed = (run.finished_at - run.started_at).total_seconds() if run.finished_at and run.started_at else None
    return {
        "status": run.status, "tokens": {"prompt": run.tokens_prompt, "completion": run.tokens_completion, "total": total},
        "cost_usd": run.cost_usd, "duration_s": elapsed, "steps": _in_reading_order(steps), "loops": loops,
        "break_reasons": {k: v.get("break_reason") for k, v in (run.loops or {}).items()},
        "pinned": pinned,
    }


def _in_reading_order(steps: dict[str, dict]) -> dict[str, dict]:
    """Each top-level step (in the order the run met them) before what ran inside it, its items and rounds in
    numeric order: ``each``, ``each[0]``, ``each[1]`` ... ``each[10]``, never ``each[0]``, ``each``, ``each[10]``;
    the coordinator's row, which is no step (though it often speaks first), after them all."""
    first_seen: dict[str, int] = {}

    def top_of(step_id: str) -> str:
        where = locate(step_id) or {}
        return where.get("loop") or where.get("include") or step_id

    for step_id in steps:
        first_seen.setdefault(top_of(step_id), len(first_seen))

    def key(step_id: str) -> tuple:
        where = locate(step_id) or {}
        top = top_of(step_id)
        number = where.get("iteration", where.get("item"))
        return (steps[step_id].get("kind") == "coordinator", first_seen[top], step_id != top,
                number if number is not None else -1, where.get("inner") or "", step_id)

    return {step_id: steps[step_id] for step_id in sorted(steps, key=key)}

"""Run services behind the API: create, read, control. Every query is scoped to the caller's workspaces:
anyone who is not a member gets a 404, a member whose role falls short a 403 (accounts.workspaces)."""
from __future__ import annotations

import base64
import binascii
import json
import math
import statistics
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone

from accounts import audit, mcp_servers
from accounts.models import Workspace
from accounts.workspaces import Need, member_workspace_ids, require
from common.dates import moment
from common.errors import LimitReached
from designer import runnable, tool_specs
from designer.errors import BadRequest
from designer.models import WorkflowVersion
from designer.workflows import reachable as reachable_workflow
from runtime import backends, keys, limits, run_files
from runtime.announce import announce_status_sync
from runtime.contract import locate
from runtime.models import ACTIVE_STATUSES, Run, RunEvent, RunIteration, RunStatus
from runtime.providers import names as provider_names
from runtime.providers.failures import missing_key
from runtime.script import ScriptError, parse_script

MAX_BUDGET = 10**15  # more than any run spends; keeps the numbers storable everywhere
BUDGET_FIELDS = {"max_tokens": int, "max_cost_usd": float, "max_duration_s": float, "max_steps": int}
MAX_EVENTS_PAGE = 5000


def reachable(user, run_id, need: Need = Need.READ) -> Run:
    """The run, when the user is a member of its workspace whose role allows ``need``."""
    try:
        run = Run.objects.select_related("workflow", "version", "workspace", "owner").get(pk=run_id)
    except (Run.DoesNotExist, ValueError, TypeError, Exception) as exc:
        if isinstance(exc, Run.DoesNotExist) or "UUID" in str(exc) or isinstance(exc, (ValueError, TypeError)):
            raise Http404(f"run {run_id} not found") from None
        raise
    require(user, run.workspace_id, need, f"run {run_id}")
    return run


def _budgets(raw: Any) -> dict:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise BadRequest("`budgets` must be an object")
    out = {}
    for key, value in raw.items():
        if key not in BUDGET_FIELDS:
            raise BadRequest(f"unknown budget `{key}` (known: {', '.join(BUDGET_FIELDS)})")
        if value is None:
            continue
        try:
            number = BUDGET_FIELDS[key](value)
        except (TypeError, ValueError, OverflowError):
            raise BadRequest(f"budget `{key}` must be a number") from None
        if isinstance(number, float) and not math.isfinite(number):
            raise BadRequest(f"budget `{key}` must be a finite number")
        if number > MAX_BUDGET:
            raise BadRequest(f"budget `{key}` is too large (at most {MAX_BUDGET:.0e})")
        if isinstance(value, bool) or number <= 0:
            raise BadRequest(f"budget `{key}` must be positive")
        out[key] = number
    return out


def _script(raw: Any) -> dict | None:
    if raw is None or raw == "":
        return None
    if isinstance(raw, str):
        from designer.source import parse_text

        parsed = parse_text(raw)
        if parsed.diagnostics:
            first = parsed.diagnostics[0]
            where = f" (line {first.line})" if first.line else ""
            raise BadRequest(f"script: {first.message}{where}")
        raw = parsed.document
    data = raw
    try:
        parse_script(data)
    except ScriptError as exc:
        raise BadRequest(f"script: {exc}") from None
    except (AttributeError, TypeError, ValueError, KeyError):
        raise BadRequest("script: expected a mapping with `replies` (key -> list of replies), and optional `latency` and `tokens`") from None
    return data


def check_script(raw: Any) -> dict | None:
    """A script for the simulated provider, checked (YAML or JSON text, or its mapping); None for none."""
    return _script(raw)


def create_run(user, *, workflow_id: int, version: int | None, provider: str, model: str | None = None,
               script: Any = None, budgets: Any = None, policies: Any = None, ask_before: Any = None,
               workspace_upload: str | None = None, workspace_from_run: str | None = None) -> Run:
    workflow = reachable_workflow(user, workflow_id, Need.RUN)
    workspace = workflow.workspace
    number = version or workflow.current_version
    found = WorkflowVersion.objects.filter(workflow=workflow, number=number).first()
    if found is None:
        raise Http404(f"workflow {workflow_id} has no version {number}")
    mcp_tools = tool_specs.known_names(mcp_servers.tool_catalogue(user))
    check_runnable(found.document, f"version {number}", mcp_tools, folder=found)
    key_source = provider_key(workspace, provider)
    checked_budgets, checked_script, checked_policies = _budgets(budgets), _script(script), _policies(policies)
    gated = _ask_before(ask_before, mcp_tools)
    earlier = None
    if workspace_from_run:
        try:
            earlier = reachable(user, workspace_from_run)
        except Http404:
            raise BadRequest(f"workspace_from_run: run {workspace_from_run!r} not found") from None
    seed = run_files.checked_seed(user, workspace_upload, earlier)
    return insert_run(user, workflow, found, provider=provider, key_source=key_source, fields={
        "model": (model or "")[:200], "script": checked_script, "budgets": checked_budgets, "policies": checked_policies,
        "ask_before": gated, "workspace_seed": seed})


def check_runnable(document: Any, what: str, mcp_tools: list[str] | None = None,
                   folder: WorkflowVersion | None = None) -> None:
    """Refuse a document that cannot run, with its diagnostics (designer.runnable: the Run button's check)."""
    runnable.check_runnable(document, what, folder=folder, mcp_tools=mcp_tools)


def provider_key(workspace: Workspace, provider: str) -> str | None:
    """Where the provider's key comes from for a run in ``workspace`` (None: it needs none); refuses an
    unknown provider, and a keyed one without a key."""
    if provider not in provider_names():
        raise BadRequest(f"unknown provider `{provider}` (known: {', '.join(provider_names())})")
    key_source = keys.resolve(workspace, provider).source if provider in keys.KEYED else None
    if provider in keys.KEYED and key_source is None:
        # Refused before it starts: never billed silently to the server, and a run without a key would only fail later.
        raise BadRequest(missing_key(provider))
    return key_source


def insert_run(user, workflow, version: WorkflowVersion, *, provider: str, key_source: str | None, fields: dict,
               prepare: Callable[[Run], None] | None = None, audit_extra: dict | None = None,
               dispatch: bool = True) -> Run:
    """Store a checked run (``fields``: the Run's other columns, budgets not yet capped) within the workspace's
    limits, and dispatch it. ``prepare(run)`` runs in the same transaction, before anyone can claim the run."""
    workspace = workflow.workspace
    try:
        with transaction.atomic():
            # One start at a time per workspace, so two requests cannot both take the last free slot.
            Workspace.objects.select_for_update().filter(pk=workspace.pk).first()
            caps = limits.check_start(workspace)
            run = Run.objects.create(
                owner=user, workspace=workspace, workflow=workflow, version=version, provider=provider,
                backend=backends.backend_name(), **{**fields, "budgets": limits.capped(fields.get("budgets") or {}, caps)},
            )
            if prepare is not None:
                prepare(run)
    except LimitReached as exc:
        audit.record(workspace.pk, user, "run_refused", workflow=workflow.name, limit=exc.limit)
        raise
    audit.record(workspace.pk, user, "run_started", run=str(run.id), workflow=workflow.name, provider=provider,
                 **({"key": key_source} if key_source else {}), **(audit_extra or {}))
    if dispatch:
        backends.dispatch(run)
    return run


def _ask_before(raw: Any, known: list[str]) -> list[str]:
    if raw in (None, []):
        return []
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        raise BadRequest("`ask_before` must be a list of tool names")
    unknown = [n for n in raw if n not in known]
    if unknown:
        raise BadRequest(f"ask_before: unknown tool(s) {', '.join(unknown)} (known: {', '.join(known)})")
    return list(dict.fromkeys(raw))


def delete_run(user, run_id) -> None:
    """Delete a finished run with its events, snapshots and workspace files."""
    run = reachable(user, run_id, Need.EDIT)
    if run.status in ACTIVE_STATUSES:
        raise BadRequest(f"run {run.id} is still {run.status}; stop it first", status=409)
    run.delete()  # the workspace directory goes with it (runtime.signals)


def _policies(raw: Any) -> dict | None:
    if raw in (None, {}):
        return None
    if not isinstance(raw, dict):
        raise BadRequest("`policies` must be an object")
    from runtime.policies import Policies

    try:
        Policies.from_dict(raw)
    except (ValueError, TypeError) as exc:
        raise BadRequest(f"policies: {exc}") from None
    return raw


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


def list_runs(user, workspace_id: int | None = None, filters: RunFilters = RunFilters(), *, limit: int = RUN_PAGE_SIZE,
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
        step = steps[step_id]
        tokens = event.get("tokens") or {}
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
    }


def _in_reading_order(steps: dict[str, dict]) -> dict[str, dict]:
    """Each top-level step (in the order the run met them) before what ran inside it, its items and rounds in
    numeric order: ``each``, ``each[0]``, ``each[1]`` ... ``each[10]``, never ``each[0]``, ``each``, ``each[10]``."""
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
        return (first_seen[top], step_id != top, number if number is not None else -1, where.get("inner") or "", step_id)

    return {step_id: steps[step_id] for step_id in sorted(steps, key=key)}


CONTROL_AUDIT = {"pause": "run_paused", "resume": "run_resumed", "stop": "run_stopped"}


def control(user, run_id, action: str) -> Run:
    run = reachable(user, run_id, Need.RUN)
    request_control(run, action, user)
    return reachable(user, run_id)


def request_control(run: Run, action: str, user=None) -> None:
    if action not in ("pause", "resume", "stop"):
        raise BadRequest(f"unknown action `{action}`")
    if run.status not in ACTIVE_STATUSES:
        raise BadRequest(f"run is {run.status}; only queued, running or paused runs can be {action}d", status=409)
    actor = user.get_username() if user is not None else None
    if user is not None:
        audit.record(run.workspace_id, user, CONTROL_AUDIT[action], run=str(run.pk))
    if action == "stop" and Run.objects.filter(pk=run.pk, status=RunStatus.QUEUED).update(
        status=RunStatus.CANCELLED, reason=f"stopped before it started{f' by {actor}' if actor else ''}", finished_at=timezone.now()
    ):
        # Never started: a worker that picks it up later will not claim it.
        announce_status_sync(run.pk)
        return
    if backends.control_local(str(run.id), action, actor):
        return
    # Not executing in this process (a Celery worker, or not claimed yet): the run's watcher picks it up.
    Run.objects.filter(pk=run.pk).update(control_request=action, control_by=actor or "")


def control_all(user, action: str) -> int:
    """The runs the user started, all at once (a team's other runs are theirs to stop), in the workspaces where
    their role still lets them control runs: one removed from a team, or made a viewer, no longer can."""
    count = 0
    for run in Run.objects.filter(owner=user, status__in=ACTIVE_STATUSES,
                                  workspace_id__in=member_workspace_ids(user, Need.RUN)):
        try:
            request_control(run, action, user)
            count += 1
        except BadRequest:
            pass
    return count


def active_count(user) -> int:
    return Run.objects.filter(owner=user, status__in=ACTIVE_STATUSES, workspace_id__in=member_workspace_ids(user)).count()


_ = settings

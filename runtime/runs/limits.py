"""A workspace's limits on runs: how many at once, how many a day, tokens and money a day.

Checked before a run starts (answered 429 with the limit and when it frees up). The day's
tokens and money are *reserved*: a run that starts holds its budget (or, without one, the
estimate ``RUN_RESERVED_TOKENS`` / ``RUN_RESERVED_COST_USD``, capped at what is left) for as
long as it is active, and its budget is capped at what it holds, so the engine stops it
there. When it ends, what it spent is what counts. Starts are one at a time per workspace
(``create.insert_run`` locks the workspace row), so runs started together can never hold
more than the day has left.
"""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from django.conf import settings
from django.db.models import F, Sum
from django.utils import timezone

from accounts.models import Workspace
from common.errors import LimitReached
from runtime.models import ACTIVE_STATUSES, Run


def _day_start(now: dt.datetime) -> dt.datetime:
    return now.astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def _seconds_to_midnight(now: dt.datetime) -> int:
    return max(1, math.ceil((_day_start(now) + dt.timedelta(days=1) - now).total_seconds()))


def usage(workspace: Workspace) -> dict:
    """What the workspace has used: runs now, and runs, tokens and cost since midnight UTC, and what the
    active runs of the day hold beyond what they have spent so far (``*_reserved``)."""
    now = timezone.now()
    today = Run.objects.filter(workspace=workspace, created_at__gte=_day_start(now))
    spent = today.aggregate(tokens=Sum(F("tokens_prompt") + F("tokens_completion")), cost=Sum("cost_usd"))
    tokens_reserved, cost_reserved = 0, 0.0
    # Active runs are few (the concurrency limit, or what one server runs at once): their budgets are read here.
    for budgets, tokens, cost in today.filter(status__in=ACTIVE_STATUSES).values_list(
            "budgets", F("tokens_prompt") + F("tokens_completion"), "cost_usd"):
        held = budgets if isinstance(budgets, dict) else {}
        tokens_reserved += max(0, int(held.get("max_tokens") or 0) - int(tokens or 0))
        cost_reserved += max(0.0, float(held.get("max_cost_usd") or 0.0) - float(cost or 0.0))
    return {"active_runs": Run.objects.filter(workspace=workspace, status__in=ACTIVE_STATUSES).count(),
            "runs_today": today.count(), "tokens_today": int(spent["tokens"] or 0), "cost_usd_today": float(spent["cost"] or 0.0),
            "tokens_reserved": tokens_reserved, "cost_usd_reserved": round(cost_reserved, 6),
            "resets_in_s": _seconds_to_midnight(now)}


def remaining(workspace: Workspace) -> dict:
    """Each limit with what is used, held by active runs and left (None: no limit), for the run dialog."""
    used = usage(workspace)
    rows = {"concurrent_runs": (workspace.max_concurrent_runs, used["active_runs"], 0),
            "runs_per_day": (workspace.max_runs_per_day, used["runs_today"], 0),
            "tokens_per_day": (workspace.max_tokens_per_day, used["tokens_today"], used["tokens_reserved"]),
            "cost_usd_per_day": (workspace.max_cost_usd_per_day, round(used["cost_usd_today"], 6), used["cost_usd_reserved"])}
    return {"limits": {k: {"limit": lim, "used": u, "reserved": held,
                           "left": None if lim is None else max(0, lim - u - held)}
                       for k, (lim, u, held) in rows.items()},
            "resets_in_s": used["resets_in_s"],
            "reserve_without_budget": {"max_tokens": settings.RUN_RESERVED_TOKENS,
                                       "max_cost_usd": settings.RUN_RESERVED_COST_USD}}


@dataclass(frozen=True)
class _Daily:
    key: str            # the limit's name in answers
    budget: str         # the run budget it caps
    words: str
    estimate: float


def _daily() -> tuple[_Daily, ...]:
    return (_Daily("tokens_per_day", "max_tokens", "tokens a day", settings.RUN_RESERVED_TOKENS),
            _Daily("cost_usd_per_day", "max_cost_usd", "USD a day", settings.RUN_RESERVED_COST_USD))


def check_start(workspace: Workspace, budgets: dict | None = None, *, at_once: bool = True) -> dict:
    """Raise LimitReached when a new run may not start; else the budgets the run holds of the day
    (its own, or the estimate, capped at what is left), to cap its budgets with (:func:`capped`).
    ``at_once=False`` leaves the runs-at-once limit out: an experiment's trials wait for a free slot."""
    state = remaining(workspace)
    limits, resets = state["limits"], state["resets_in_s"]
    wait = f"it resets at midnight UTC, in {_words(resets)}"
    concurrent = limits["concurrent_runs"]
    if at_once and concurrent["left"] == 0:
        raise LimitReached(f"this workspace may have {concurrent['limit']} run(s) at once and has {concurrent['used']}: "
                           "wait for one to finish or stop one", limit="concurrent_runs")
    runs = limits["runs_per_day"]
    if runs["left"] is not None and runs["left"] <= 0:
        raise LimitReached(f"this workspace's limit of {runs['limit']:g} runs a day is used up; {wait}",
                           limit="runs_per_day", retry_after_s=resets)
    own = budgets or {}
    caps: dict[str, int | float] = {}
    for daily in _daily():
        row = limits[daily.key]
        if row["left"] is None:
            continue
        if row["left"] <= 0:
            held = f", {_amount(row['reserved'], daily)} of it held by running runs" if row["reserved"] else ""
            until = "; wait for a run to finish or " + wait if row["reserved"] else "; " + wait
            raise LimitReached(f"this workspace's limit of {_amount(row['limit'], daily)} {daily.words} is used up "
                               f"({_amount(row['used'], daily)} spent{held}){until}",
                               limit=daily.key, retry_after_s=resets)
        wanted = own.get(daily.budget)
        hold = min(wanted if wanted is not None else daily.estimate, row["left"])
        caps[daily.budget] = int(hold) if daily.budget == "max_tokens" else round(float(hold), 6)
    return caps


def capped(budgets: dict, caps: dict) -> dict:
    out = dict(budgets)
    for key, cap in caps.items():
        out[key] = cap if out.get(key) is None else min(out[key], cap)
    return out


def _amount(value: float, daily: _Daily) -> str:
    return f"{value:,.0f}" if daily.budget == "max_tokens" else f"{value:g}"


def _words(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes = math.ceil(rest / 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"

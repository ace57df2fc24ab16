"""A workspace's limits on runs: how many at once, how many a day, tokens and money a day.

Checked before a run starts (answered 429 with the limit and when it frees up); what is
left of the day's tokens and money also caps the run's own budgets, so the engine stops
a run that would go past the workspace's day.
"""
from __future__ import annotations

import datetime as dt
import math

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
    """What the workspace has used: runs now, and runs, tokens and cost since midnight UTC."""
    now = timezone.now()
    today = Run.objects.filter(workspace=workspace, created_at__gte=_day_start(now))
    spent = today.aggregate(tokens=Sum(F("tokens_prompt") + F("tokens_completion")), cost=Sum("cost_usd"))
    return {"active_runs": Run.objects.filter(workspace=workspace, status__in=ACTIVE_STATUSES).count(),
            "runs_today": today.count(), "tokens_today": int(spent["tokens"] or 0), "cost_usd_today": float(spent["cost"] or 0.0),
            "resets_in_s": _seconds_to_midnight(now)}


def remaining(workspace: Workspace) -> dict:
    """Each limit with what is used and left (None: no limit), for the run dialog."""
    used = usage(workspace)
    rows = {"concurrent_runs": (workspace.max_concurrent_runs, used["active_runs"]),
            "runs_per_day": (workspace.max_runs_per_day, used["runs_today"]),
            "tokens_per_day": (workspace.max_tokens_per_day, used["tokens_today"]),
            "cost_usd_per_day": (workspace.max_cost_usd_per_day, round(used["cost_usd_today"], 6))}
    return {"limits": {k: {"limit": lim, "used": u, "left": None if lim is None else max(0, lim - u)} for k, (lim, u) in rows.items()},
            "resets_in_s": used["resets_in_s"]}


def check_start(workspace: Workspace) -> dict:
    """Raise LimitReached when a new run may not start; else the budget caps what is left of the day imposes."""
    state = remaining(workspace)
    limits, resets = state["limits"], state["resets_in_s"]
    wait = f"it resets at midnight UTC, in {_words(resets)}"
    concurrent = limits["concurrent_runs"]
    if concurrent["left"] == 0:
        raise LimitReached(f"this workspace may have {concurrent['limit']} run(s) at once and has {concurrent['used']}: "
                           "wait for one to finish or stop one", limit="concurrent_runs")
    for key, words in (("runs_per_day", "runs a day"), ("tokens_per_day", "tokens a day"), ("cost_usd_per_day", "USD a day")):
        row = limits[key]
        if row["left"] is not None and row["left"] <= 0:
            raise LimitReached(f"this workspace's limit of {row['limit']:g} {words} is used up; {wait}",
                               limit=key, retry_after_s=resets)
    caps: dict[str, int | float] = {}
    if limits["tokens_per_day"]["left"] is not None:
        caps["max_tokens"] = int(limits["tokens_per_day"]["left"])
    if limits["cost_usd_per_day"]["left"] is not None:
        caps["max_cost_usd"] = float(limits["cost_usd_per_day"]["left"])
    return caps


def capped(budgets: dict, caps: dict) -> dict:
    out = dict(budgets)
    for key, cap in caps.items():
        out[key] = cap if out.get(key) is None else min(out[key], cap)
    return out


def _words(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes = math.ceil(rest / 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"

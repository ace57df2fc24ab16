"""Twenty runs started at once never hold more of the day's tokens or money than is left: each start reserves
its budget (or the estimate, RUN_RESERVED_TOKENS / RUN_RESERVED_COST_USD) under the workspace's lock, and its
budget is capped at what it reserved. What the active runs hold is reported, and said in the 429."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from accounts.models import Workspace
from designer.models import WorkflowVersion
from runtime.models import ACTIVE_STATUSES, Run
from tests.support.api_calls import post, wait_for
from tests.support.races import all_at_once, checks_for_all

pytestmark = pytest.mark.django_db(transaction=True)

SIMPLE = "name: s\nsteps:\n  - id: draft\n    instructions: Write.\n"
SLOW = {"latency": 120, "replies": {"draft": ["a draft"]}}  # runs stay active for the whole race; stopped after it


@pytest.fixture
def member(db):
    user = get_user_model().objects.create_user("member")
    client = Client()
    client.force_login(user)
    return user, client


def start_twenty(user, workflow: str, budgets: dict) -> list:
    def start(_: int):
        client = Client()
        client.force_login(user)
        try:
            return post(client, "/api/v1/runs", {"workflow_id": workflow, "script": SLOW, "budgets": budgets})
        finally:
            connection.close()  # this thread's own connection

    with checks_for_all(20):
        return all_at_once(start, 20)


def stop_all(client) -> None:
    for run in Run.objects.filter(status__in=ACTIVE_STATUSES):
        post(client, f"/api/v1/runs/{run.pk}/stop", {})
        wait_for(client, str(run.pk))


def limited(user, **limits) -> Workspace:
    workspace = Workspace.objects.get(personal_for=user)
    Workspace.objects.filter(pk=workspace.pk).update(**limits)
    return workspace


def test_twenty_starts_at_once_hold_no_more_tokens_than_the_day_has_left(member, settings):
    user, client = member
    settings.RUN_RESERVED_TOKENS = 400
    workspace = limited(user, max_tokens_per_day=2000)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    Run.objects.create(owner=user, workspace=workspace, workflow_id=workflow, status="completed",
                       version=WorkflowVersion.objects.get(workflow_id=workflow), tokens_prompt=600, tokens_completion=400)
    answers = start_twenty(user, workflow, {})
    try:
        started = [a.json() for a in answers if a.status_code == 201]
        refused = [a for a in answers if a.status_code != 201]
        # 1,000 left: 400 + 400 + 200, each run holding its estimate, capped at what was left.
        assert sorted(r["budgets"]["max_tokens"] for r in started) == [200, 400, 400], [a.status_code for a in answers]
        assert len(refused) == 17 and {a.status_code for a in refused} == {429}
        body = refused[0].json()
        assert body["limit"] == "tokens_per_day"
        assert "limit of 2,000 tokens a day is used up (1,000 spent, 1,000 of it held by running runs)" in body["detail"]
        usage = client.get(f"/api/v1/workspaces/{workspace.pk}/usage").json()["limits"]["tokens_per_day"]
        assert usage == {"limit": 2000, "used": 1000, "reserved": 1000, "left": 0}
    finally:
        stop_all(client)
    after = client.get(f"/api/v1/workspaces/{workspace.pk}/usage").json()["limits"]["tokens_per_day"]
    assert after["reserved"] == 0 and after["used"] <= 2000  # settled: what the stopped runs spent counts


def test_twenty_starts_at_once_hold_no_more_money_than_the_day_has_left(member):
    user, client = member
    workspace = limited(user, max_cost_usd_per_day=1.0)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    answers = start_twenty(user, workflow, {"max_cost_usd": 0.3})
    try:
        started = [a.json() for a in answers if a.status_code == 201]
        assert sorted(r["budgets"]["max_cost_usd"] for r in started) == [0.1, 0.3, 0.3, 0.3]
        assert [a.json()["limit"] for a in answers if a.status_code != 201] == ["cost_usd_per_day"] * 16
        usage = client.get(f"/api/v1/workspaces/{workspace.pk}/usage").json()["limits"]["cost_usd_per_day"]
        assert usage["reserved"] == pytest.approx(1.0) and usage["left"] == pytest.approx(0)
    finally:
        stop_all(client)


def test_a_run_without_a_budget_holds_the_estimate_and_one_with_a_budget_holds_it(member, settings):
    user, client = member
    settings.RUN_RESERVED_TOKENS = 300
    limited(user, max_tokens_per_day=10_000)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    try:
        plain = post(client, "/api/v1/runs", {"workflow_id": workflow, "script": SLOW}).json()
        own = post(client, "/api/v1/runs", {"workflow_id": workflow, "script": SLOW, "budgets": {"max_tokens": 5000}}).json()
        assert plain["budgets"]["max_tokens"] == 300 and own["budgets"]["max_tokens"] == 5000
        usage = client.get(f"/api/v1/workspaces/{Workspace.objects.get(personal_for=user).pk}/usage").json()
        assert usage["limits"]["tokens_per_day"]["left"] == 10_000 - 5300
        assert usage["reserve_without_budget"]["max_tokens"] == 300
    finally:
        stop_all(client)


def test_limits_are_set_field_by_field(member):
    user, client = member
    workspace = Workspace.objects.get(personal_for=user)
    put = lambda body: client.put(f"/api/v1/workspaces/{workspace.pk}/limits", data=json.dumps(body),
                                  content_type="application/json")
    assert put({"max_tokens_per_day": 1000, "max_runs_per_day": 5}).status_code == 200
    assert put({"max_cost_usd_per_day": 2.5}).status_code == 200  # the others stay
    workspace.refresh_from_db()
    assert (workspace.max_tokens_per_day, workspace.max_runs_per_day, workspace.max_cost_usd_per_day) == (1000, 5, 2.5)
    assert put({"max_runs_per_day": None}).status_code == 200  # null clears that one
    workspace.refresh_from_db()
    assert (workspace.max_tokens_per_day, workspace.max_runs_per_day) == (1000, None)

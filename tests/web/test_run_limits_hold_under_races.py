"""The workspace's other limits hold under the same race as its daily tokens and money
(tests/web/test_daily_limits_hold_under_races.py): twenty starts released together never pass the runs-at-once or
the runs-a-day limit, and every start beyond them is answered 429 naming the limit. A fork and an experiment's
trial reserve the day's tokens as a run start does: with room for one, no second one holds any."""
from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from accounts.models import Workspace
from designer.models import WorkflowVersion
from runtime.models import ACTIVE_STATUSES, Experiment, Run
from tests.support.api_calls import post, wait_for
from tests.support.evaluations import make_dataset, wait_for_experiment
from tests.support.races import all_at_once, checks_for_all

pytestmark = pytest.mark.django_db(transaction=True)

SIMPLE = "name: s\nsteps:\n  - id: draft\n    instructions: Write.\n"
SLOW = {"latency": 120, "replies": {"draft": ["a draft"]}}  # runs stay active for the whole race; stopped after it
QUICK = {"replies": {"draft": ["a draft"]}, "tokens": {"prompt": 10, "completion": 5}}
RACERS = 20


@pytest.fixture
def member(db):
    user = get_user_model().objects.create_user("member")
    client = Client()
    client.force_login(user)
    return user, client


def set_limits(client, workspace: Workspace, **limits) -> None:
    answer = client.put(f"/api/v1/workspaces/{workspace.pk}/limits", data=json.dumps(limits),
                        content_type="application/json")
    assert answer.status_code == 200, answer.content


def all_together(user, path: str, body: dict) -> list:
    """``body`` posted to ``path`` RACERS times at once, each from a thread with its own signed-in client."""
    def ask(_: int):
        client = Client()
        client.force_login(user)
        try:
            return post(client, path, body)
        finally:
            connection.close()  # this thread's own connection

    with checks_for_all(RACERS):
        return all_at_once(ask, RACERS)


def refused_for(answers: list, limit: str) -> list:
    """The refusals, each checked to be a 429 naming ``limit``."""
    refused = [a for a in answers if a.status_code != 201]
    assert {a.status_code for a in refused} <= {429}, [(a.status_code, a.content[:200]) for a in refused]
    assert {a.json()["limit"] for a in refused} <= {limit}
    return refused


def stop_all(client) -> None:
    for experiment in Experiment.objects.filter(status="running"):
        post(client, f"/api/v1/experiments/{experiment.pk}/stop", {})
    for run in Run.objects.filter(status__in=ACTIVE_STATUSES):
        post(client, f"/api/v1/runs/{run.pk}/stop", {})
        wait_for(client, str(run.pk))


def test_twenty_starts_at_once_hold_no_more_runs_at_once_than_the_limit(member):
    user, client = member
    workspace = Workspace.objects.get(personal_for=user)
    set_limits(client, workspace, max_concurrent_runs=3)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    answers = all_together(user, "/api/v1/runs", {"workflow_id": workflow, "script": SLOW})
    try:
        refused = refused_for(answers, "concurrent_runs")
        assert len(refused) == RACERS - 3, [a.status_code for a in answers]
        assert "may have 3 run(s) at once and has 3" in refused[0].json()["detail"]
        assert Run.objects.filter(workspace=workspace, status__in=ACTIVE_STATUSES).count() == 3
        usage = client.get(f"/api/v1/workspaces/{workspace.pk}/usage").json()["limits"]["concurrent_runs"]
        assert (usage["used"], usage["left"]) == (3, 0)
    finally:
        stop_all(client)


def test_twenty_starts_at_once_hold_no_more_runs_a_day_than_the_limit(member):
    user, client = member
    workspace = Workspace.objects.get(personal_for=user)
    set_limits(client, workspace, max_runs_per_day=4)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    Run.objects.create(owner=user, workspace=workspace, workflow_id=workflow, status="completed",
                       version=WorkflowVersion.objects.get(workflow_id=workflow))  # one of today's four
    answers = all_together(user, "/api/v1/runs", {"workflow_id": workflow, "script": SLOW})
    try:
        refused = refused_for(answers, "runs_per_day")
        assert len(refused) == RACERS - 3, [a.status_code for a in answers]
        assert "limit of 4 runs a day is used up" in refused[0].json()["detail"]
        assert all(r.json()["retryAfterSeconds"] > 0 and int(r["Retry-After"]) > 0 for r in refused)
        assert Run.objects.filter(workspace=workspace).count() == 4
    finally:
        stop_all(client)
    # Runs that ended still count for the day: a start after them is refused too.
    late = post(client, "/api/v1/runs", {"workflow_id": workflow, "script": SLOW})
    assert late.status_code == 429 and late.json()["limit"] == "runs_per_day"


def finished_parent(client, workflow: int) -> dict:
    created = post(client, "/api/v1/runs", {"workflow_id": workflow, "script": QUICK, "coordinator": "off"})
    assert created.status_code == 201, created.content
    run = wait_for(client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    return run


def test_twenty_forks_at_once_hold_no_more_tokens_than_the_day_has_left(member, settings):
    user, client = member
    settings.RUN_RESERVED_TOKENS = 400
    workspace = Workspace.objects.get(personal_for=user)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    parent = finished_parent(client, workflow)
    row = Run.objects.get(pk=parent["id"])
    spent = row.tokens_prompt + row.tokens_completion
    assert spent > 0
    set_limits(client, workspace, max_tokens_per_day=spent + 400)  # room for one fork's estimate, no more
    answers = all_together(user, f"/api/v1/runs/{parent['id']}/fork", {"at": {"step": "draft"}, "script": SLOW})
    try:
        refused = refused_for(answers, "tokens_per_day")
        started = [a.json() for a in answers if a.status_code == 201]
        assert len(started) == 1 and len(refused) == RACERS - 1, [a.status_code for a in answers]
        assert started[0]["parent"] == parent["id"] and started[0]["budgets"]["max_tokens"] == 400
        assert "400 of it held by running runs" in refused[0].json()["detail"]
        usage = client.get(f"/api/v1/workspaces/{workspace.pk}/usage").json()["limits"]["tokens_per_day"]
        assert (usage["reserved"], usage["left"]) == (400, 0)
    finally:
        stop_all(client)


def trial_runs(experiment_id: int) -> list[Run]:
    return list(Run.objects.filter(experiment_id=experiment_id))


def test_an_experiments_trial_holds_the_days_tokens_as_a_run_start_does(member, settings):
    user, client = member
    settings.RUN_RESERVED_TOKENS = 400
    workspace = Workspace.objects.get(personal_for=user)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    dataset = make_dataset(client, workflow, [{"id": "slow", "script": SLOW}])
    set_limits(client, workspace, max_tokens_per_day=400)  # room for one run's estimate
    body = {"workflow_id": workflow, "dataset_id": dataset["id"], "settings": {"coordinator": "off"}}
    try:
        first = post(client, "/api/v1/experiments", body)
        assert first.status_code == 201, first.content
        deadline = time.monotonic() + 60
        while not Run.objects.filter(experiment_id=first.json()["id"], status__in=ACTIVE_STATUSES).exists():
            assert time.monotonic() < deadline, "the first experiment's trial never started"
            time.sleep(0.05)
        [held] = trial_runs(first.json()["id"])
        assert held.budgets["max_tokens"] == 400

        # Nothing left: a second experiment is refused as a run would be, naming the limit.
        second = post(client, "/api/v1/experiments", body)
        assert second.status_code == 429, second.content
        assert second.json()["limit"] == "tokens_per_day"
        assert "400 of it held by running runs" in second.json()["detail"]
        ordinary = post(client, "/api/v1/runs", {"workflow_id": workflow, "script": SLOW})
        assert ordinary.status_code == 429 and ordinary.json()["limit"] == "tokens_per_day"
    finally:
        stop_all(client)


def test_experiments_started_together_hold_no_more_tokens_than_the_day_has_left(member, settings):
    user, client = member
    settings.RUN_RESERVED_TOKENS = 400
    workspace = Workspace.objects.get(personal_for=user)
    workflow = post(client, "/api/v1/workflows", {"source": SIMPLE}).json()["id"]
    dataset = make_dataset(client, workflow, [{"id": "slow", "script": SLOW}])
    set_limits(client, workspace, max_tokens_per_day=400)
    answers = all_together(user, "/api/v1/experiments",
                           {"workflow_id": workflow, "dataset_id": dataset["id"], "settings": {"coordinator": "off"}})
    try:
        refused_for(answers, "tokens_per_day")
        started = [a.json()["id"] for a in answers if a.status_code == 201]
        assert started, [a.status_code for a in answers]
        # Each accepted experiment either holds the one trial run the day has room for or ends, naming the limit.
        deadline = time.monotonic() + 120
        while True:
            holding = [e for e in started if trial_runs(e)]
            ended = [e for e in started if Experiment.objects.get(pk=e).status != "running"]
            if len(holding) == 1 and len(holding) + len(ended) == len(started):
                break
            assert len(holding) <= 1 and time.monotonic() < deadline, (holding, ended, started)
            time.sleep(0.05)
        for experiment_id in ended:
            body = wait_for_experiment(client, experiment_id)["experiment"]
            assert body["status"] == "stopped" and "tokens a day is used up" in body["reason"], body
        usage = client.get(f"/api/v1/workspaces/{workspace.pk}/usage").json()["limits"]["tokens_per_day"]
        assert usage["reserved"] + usage["used"] <= 400 and usage["reserved"] == 400
    finally:
        stop_all(client)

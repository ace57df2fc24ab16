"""Fair use of one server: a run without a key is refused before it starts (never billed to the
server), the server's own keys only where its owner granted them, and per-workspace limits on
runs at once, runs a day, tokens and cost a day answered 429 with when they free up."""
from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model

from accounts.models import AuditEntry, Membership, Role, Workspace
from accounts.workspaces import create_team
from runtime.models import Run
from tests.fakes.openai import FakeOpenAI
from tests.support.api_calls import client_for, post, wait_for, wait_for_events

pytestmark = pytest.mark.django_db(transaction=True)

DOC = "name: w\nagents:\n  writer: {description: Writes., model: openai/gpt-test}\nsteps:\n  - id: draft\n    agent: writer\n    instructions: Write.\n"
SIMPLE = "name: s\nsteps:\n  - id: draft\n    instructions: Write.\n"
SCRIPT = {"replies": {"draft": ["a draft"]}}



@pytest.fixture
def people(db):
    User = get_user_model()
    server_owner = User.objects.create_superuser("boss", password=None)
    member = User.objects.create_user("member")
    team = create_team(member, "Team")
    Membership.objects.create(workspace=team, user=server_owner, role=Role.ADMIN)
    return {"boss": server_owner, "member": member, "team": team}


def test_a_run_without_a_key_is_refused_and_with_the_servers_key_granted_it_runs(people, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    member = client_for(people["member"])
    team = people["team"]
    with FakeOpenAI(default={"content": "hello"}) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        wid = post(member, "/api/v1/workflows", {"source": DOC, "workspace_id": team.pk}).json()["id"]
        refused = post(member, "/api/v1/runs", {"workflow_id": wid, "provider": "openai"})
        assert refused.status_code == 400 and "No OpenAI API key in workspace 'Team'" in refused.json()["detail"]
        # The server has a key, not granted here: the fix is a grant, not the administrator setting a key.
        assert "grant this workspace the server's keys" in refused.json()["detail"]
        assert "OPENAI_API_KEY" not in refused.json()["detail"]
        assert f"/workspaces/{team.pk}" in refused.json()["detail"]
        assert Run.objects.count() == 0 and fake.requests == []
        # The workspace's admin may not grant it (and is told so before trying); the server's owner may.
        assert member.get(f"/api/v1/workspaces/{team.pk}").json()["can_grant_server_keys"] is False
        assert client_for(people["boss"]).get(f"/api/v1/workspaces/{team.pk}").json()["can_grant_server_keys"] is True
        assert member.put(f"/api/v1/workspaces/{team.pk}/server-keys", data=json.dumps({"granted": True}),
                          content_type="application/json").status_code == 403
        boss = client_for(people["boss"])
        granted = boss.put(f"/api/v1/workspaces/{team.pk}/server-keys", data=json.dumps({"granted": True}),
                           content_type="application/json")
        assert granted.status_code == 200 and granted.json()["server_keys"] is True
        run = post(member, "/api/v1/runs", {"workflow_id": wid, "provider": "openai"})
        assert run.status_code == 201
        assert wait_for(member, run.json()["id"])["status"] == "completed"
        assert fake.requests[0].headers.get("authorization") == "Bearer sk-the-servers-own"
    assert AuditEntry.objects.filter(workspace=team, action="server_keys_granted").count() == 1
    started = AuditEntry.objects.get(workspace=team, action="run_started")
    assert started.detail["key"] == "server" and started.actor_name == "member"


def test_a_new_workspace_never_has_the_servers_keys_but_the_owners_own_does(people):
    assert Workspace.objects.get(personal_for=people["boss"]).server_keys is True
    assert Workspace.objects.get(personal_for=people["member"]).server_keys is False
    assert people["team"].server_keys is False


def test_the_concurrent_run_limit_answers_429_and_frees_up_when_a_run_ends(people):
    member = client_for(people["member"])
    team = people["team"]
    assert member.put(f"/api/v1/workspaces/{team.pk}/limits", data=json.dumps({"max_concurrent_runs": 1}),
                      content_type="application/json").status_code == 200
    wid = post(member, "/api/v1/workflows", {"source": SIMPLE, "workspace_id": team.pk}).json()["id"]
    slow = {"latency": 30, "replies": {"draft": ["slow"]}}
    first = post(member, "/api/v1/runs", {"workflow_id": wid, "script": slow})
    assert first.status_code == 201
    second = post(member, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT})
    assert second.status_code == 429
    assert second.json()["limit"] == "concurrent_runs"
    assert "1 run(s) at once" in second.json()["detail"]
    usage = member.get(f"/api/v1/workspaces/{team.pk}/usage").json()
    assert usage["limits"]["concurrent_runs"] == {"limit": 1, "used": 1, "reserved": 0, "left": 0}
    assert post(member, f"/api/v1/runs/{first.json()['id']}/stop", {}).status_code == 200
    wait_for(member, first.json()["id"])
    third = post(member, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT})
    assert third.status_code == 201
    assert AuditEntry.objects.filter(workspace=team, action="run_refused").count() == 1


def test_the_daily_run_limit_answers_429_with_the_time_to_midnight_and_resets_the_next_day(people):
    member = client_for(people["member"])
    team = people["team"]
    member.put(f"/api/v1/workspaces/{team.pk}/limits", data=json.dumps({"max_runs_per_day": 2}), content_type="application/json")
    wid = post(member, "/api/v1/workflows", {"source": SIMPLE, "workspace_id": team.pk}).json()["id"]
    for _ in range(2):
        run = post(member, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT})
        assert run.status_code == 201
        wait_for(member, run.json()["id"])
    refused = post(member, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT})
    assert refused.status_code == 429
    body = refused.json()
    assert body["limit"] == "runs_per_day" and "limit of 2 runs a day is used up" in body["detail"]
    now = dt.datetime.now(dt.UTC)
    to_midnight = (now.replace(hour=0, minute=0, second=0, microsecond=0) + dt.timedelta(days=1) - now).total_seconds()
    assert abs(body["retryAfterSeconds"] - to_midnight) < 5 and refused["Retry-After"] == str(body["retryAfterSeconds"])
    # Yesterday's runs do not count today.
    Run.objects.filter(workspace=team).update(created_at=now - dt.timedelta(days=1))
    assert post(member, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT}).status_code == 201


def test_what_is_left_of_the_days_tokens_caps_the_runs_budget(people):
    member = client_for(people["member"])
    team = people["team"]
    member.put(f"/api/v1/workspaces/{team.pk}/limits", data=json.dumps({"max_tokens_per_day": 1000, "max_cost_usd_per_day": 2.5}),
               content_type="application/json")
    wid = post(member, "/api/v1/workflows", {"source": SIMPLE, "workspace_id": team.pk}).json()["id"]
    run = post(member, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT, "budgets": {"max_tokens": 5000, "max_cost_usd": 10}}).json()
    assert run["budgets"]["max_tokens"] == 1000 and run["budgets"]["max_cost_usd"] == 2.5
    wait_for(member, run["id"])
    Run.objects.filter(pk=run["id"]).update(tokens_prompt=600, tokens_completion=400)
    refused = post(member, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT})
    assert refused.status_code == 429 and refused.json()["limit"] == "tokens_per_day"


def test_a_viewer_cannot_start_or_stop_and_pause_records_who_asked(people):
    User = get_user_model()
    viewer_user = User.objects.create_user("watcher")
    team = people["team"]
    Membership.objects.create(workspace=team, user=viewer_user, role=Role.VIEWER)
    member, viewer = client_for(people["member"]), client_for(viewer_user)
    wid = post(member, "/api/v1/workflows", {"source": SIMPLE, "workspace_id": team.pk}).json()["id"]
    assert post(viewer, "/api/v1/runs", {"workflow_id": wid, "script": SCRIPT}).status_code == 403
    slow = {"latency": 600, "replies": {"draft": ["slow"]}}  # in flight until the test stops the run
    run = post(member, "/api/v1/runs", {"workflow_id": wid, "script": slow}).json()
    # Paused at once, wherever the run is (queued, claimed, running): the pause is recorded all the same.
    assert post(viewer, f"/api/v1/runs/{run['id']}/stop", {}).status_code == 403
    assert post(member, f"/api/v1/runs/{run['id']}/pause", {}).status_code == 200
    # The watcher polls for the event, as a client would.
    control = wait_for_events(viewer, run["id"], "run_control", timeout=60)
    assert control[0]["data"] == {"action": "pause", "actor": "member"}
    assert control[0]["message"].endswith("(by member)")
    post(member, f"/api/v1/runs/{run['id']}/stop", {})
    wait_for(member, run["id"])
    actions = list(AuditEntry.objects.filter(workspace=team).order_by("id").values_list("action", "actor_name"))
    assert actions.count(("run_paused", "member")) == 1 and actions.count(("run_stopped", "member")) == 1
    assert ("run_stopped", "watcher") not in actions

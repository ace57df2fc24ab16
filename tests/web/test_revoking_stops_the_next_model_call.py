"""Removing a key, revoking the server's grant, removing a member or lowering a role stops the runs that depended
on it before their next model call (counted at the fake OpenAI server), failed with the reason and who made the
change; a run whose work starts again checks every permission a start checks (runtime/execution/permits.py)."""
from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Membership, Role, Workspace
from accounts.provider_keys import store_provider_key
from accounts.workspaces import create_team
from runtime.execution import permits
from runtime.models import Run
from tests.fakes.openai import FakeOpenAI
from tests.support.api_calls import client_for, post, wait_for, wait_for_events

pytestmark = pytest.mark.django_db(transaction=True)

TWO_CALLS = """name: two
agents:
  writer: {description: Writes., model: openai/gpt-test}
steps:
  - {id: one, agent: writer, instructions: One.}
  - {id: two, agent: writer, instructions: Two., dependsOn: [one]}
"""
DEADLINE_S = 60



@pytest.fixture
def people(db, settings):
    settings.PROVIDER_URLS_ALLOW_PRIVATE = True
    User = get_user_model()
    boss = User.objects.create_superuser("boss", password=None)
    member = User.objects.create_user("member")
    team = create_team(boss, "Team")
    Membership.objects.create(workspace=team, user=member, role=Role.EDITOR)
    return {"boss": boss, "member": member, "team": team}


def paused_after_the_first_call(member: Client, team: Workspace, fake: FakeOpenAI) -> str:
    """A run of two OpenAI calls, paused while the first is in flight; answers once that one has ended."""
    wid = post(member, "/api/v1/workflows", {"source": TWO_CALLS, "workspace_id": team.pk}).json()["id"]
    created = post(member, "/api/v1/runs", {"coordinator": "off", "workflow_id": wid, "provider": "openai"})
    assert created.status_code == 201, created.content
    run = created.json()["id"]
    deadline = time.monotonic() + DEADLINE_S
    while not fake.requests:
        assert time.monotonic() < deadline, "the first call never reached the fake server"
        time.sleep(0.02)
    assert post(member, f"/api/v1/runs/{run}/pause", {}).status_code == 200
    wait_for_events(member, run, "step_end", step_id="one")
    return run


def ended_by_the_permit(member: Client, run: str) -> dict:
    assert post(member, f"/api/v1/runs/{run}/resume", {}).status_code == 200
    finished = wait_for(member, run, timeout=DEADLINE_S)
    assert finished["status"] == "partial", finished  # step one completed before the change
    return finished


def test_revoking_the_servers_grant_stops_the_run_before_its_next_call(people, settings):
    member, boss, team = client_for(people["member"]), client_for(people["boss"]), people["team"]
    with FakeOpenAI([{"content": "first", "latency": 2}], default={"content": "more"}) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        assert boss.put(f"/api/v1/workspaces/{team.pk}/server-keys", data=json.dumps({"granted": True}),
                        content_type="application/json").status_code == 200
        run = paused_after_the_first_call(member, team, fake)
        assert boss.put(f"/api/v1/workspaces/{team.pk}/server-keys", data=json.dumps({"granted": False}),
                        content_type="application/json").status_code == 200
        finished = ended_by_the_permit(member, run)
        assert len(fake.requests) == 1  # nothing more went out with the server's key
    assert finished["reason"] == ("stopped before its next model call: the server's OpenAI key is no longer granted "
                                  "to this workspace (by boss)")
    said = wait_for_events(member, run, "message")
    assert any(e["data"].get("code") == "permit" and "(by boss)" in e["message"] for e in said)


def test_removing_the_workspaces_key_stops_the_run(people, settings):
    member, boss, team = client_for(people["member"]), client_for(people["boss"]), people["team"]
    with FakeOpenAI([{"content": "first", "latency": 2}], default={"content": "more"}) as fake:
        settings.OPENAI_API_KEY = ""
        store_provider_key(team, people["boss"], "openai", "sk-team-key", fake.url + "/v1")
        run = paused_after_the_first_call(member, team, fake)
        assert boss.delete(f"/api/v1/workspaces/{team.pk}/keys/openai").status_code == 204
        finished = ended_by_the_permit(member, run)
        assert len(fake.requests) == 1
    assert finished["reason"].endswith("this workspace's OpenAI key was removed (by boss)")


@pytest.mark.parametrize("change", ["removed", "made a viewer"])
def test_removing_the_owner_or_lowering_their_role_stops_their_run(people, settings, change):
    member, boss, team = client_for(people["member"]), client_for(people["boss"]), people["team"]
    with FakeOpenAI([{"content": "first", "latency": 2}], default={"content": "more"}) as fake:
        settings.OPENAI_API_KEY = ""
        store_provider_key(team, people["boss"], "openai", "sk-team-key", fake.url + "/v1")
        run = paused_after_the_first_call(member, team, fake)
        membership = Membership.objects.get(workspace=team, user=people["member"])
        if change == "removed":
            answer = boss.delete(f"/api/v1/workspaces/{team.pk}/members/{people['member'].pk}")
        else:
            answer = boss.put(f"/api/v1/workspaces/{team.pk}/members/{people['member'].pk}",
                              data=json.dumps({"role": "viewer"}), content_type="application/json")
        assert answer.status_code in (200, 204), answer.content
        # The owner can no longer resume it; the workspace's admin can.
        assert post(boss, f"/api/v1/runs/{run}/resume", {}).status_code == 200
        finished = wait_for(boss, run, timeout=DEADLINE_S)
        assert len(fake.requests) == 1
    expected = ("member is no longer a member of this workspace (by boss)" if change == "removed" else
                "member's role in this workspace is now viewer, which cannot run or control runs (by boss)")
    assert finished["status"] == "partial" and finished["reason"].endswith(expected), finished
    assert not Membership.objects.filter(pk=membership.pk, role=Role.EDITOR).exists()


def test_work_that_starts_again_checks_what_a_start_checks(people):
    team, member = people["team"], people["member"]
    wid = post(client_for(member), "/api/v1/workflows", {"source": TWO_CALLS, "workspace_id": team.pk}).json()["id"]
    run = Run.objects.get(pk=wait_for(client_for(member), post(client_for(member), "/api/v1/runs",
                                                                 {"coordinator": "off", "workflow_id": wid}).json()["id"])["id"])
    assert permits.take(run).owner_id == member.pk
    Run.objects.filter(pk=run.pk).update(provider="openai")
    run.refresh_from_db()
    with pytest.raises(permits.PermitRefused, match="No OpenAI API key"):
        permits.take(run)
    Membership.objects.filter(workspace=team, user=member).update(role=Role.VIEWER)
    with pytest.raises(permits.PermitRefused, match="role in this workspace is now viewer"):
        permits.take(run)

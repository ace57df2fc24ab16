"""Pinned outputs over HTTP (issue #33): pin a step of a finished run, and the next run of the workflow takes it
without a request to the provider (counted at the fake OpenAI server), says so in its events, metrics and record;
`use_pins: false` turns them all off; pins are listed and cleared beside the workflow, never in its export; who
may pin, list and clear is checked, and bad input is refused naming its field."""
import pytest
from django.contrib.auth import get_user_model

from accounts.models import Membership, Role
from accounts.workspaces import create_team
from tests.fakes.openai import FakeOpenAI
from tests.support.api_calls import client_for, post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: pinned
agents:
  writer: {description: Writes., model: openai/gpt-test}
steps:
  - {id: draft, agent: writer, instructions: Write a draft.}
  - {id: review, agent: writer, instructions: Review it., dependsOn: [draft]}
"""


def events(client, run_id, type_="agent_turn"):
    return [e for e in client.get(f"/api/v1/runs/{run_id}/events").json() if e["type"] == type_]


def run_once(client, workflow, **fields):
    created = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "openai", "coordinator": "off", **fields})
    assert created.status_code == 201, created.content
    run = wait_for(client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    return run


def test_a_pinned_step_is_not_sent_and_is_marked_pinned(server_owner, settings):
    client = client_for(server_owner)
    with FakeOpenAI(default={"content": "from the model"}) as fake:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = fake.url + "/v1", "sk-the-servers-own"
        workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
        first = run_once(client, workflow)
        assert len(fake.requests) == 2 and first["pins"] == []
        pinned = post(client, f"/api/v1/runs/{first['id']}/pins", {"step": "draft", "content": "THE PINNED DRAFT"})
        assert pinned.status_code == 201, pinned.content
        assert [p["step_path"] for p in pinned.json()] == ["draft"] and pinned.json()[0]["source_run"] == first["id"]

        second = run_once(client, workflow)
        assert len(fake.requests) == 3  # only review asked the model
        assert "THE PINNED DRAFT" in fake.requests[2].json["messages"][-1]["content"]
        assert second["pins"] == ["draft"]
        turns = events(client, second["id"])
        assert {e["stepId"] for e in turns if e["data"].get("pinned")} == {"draft"}
        metrics = client.get(f"/api/v1/runs/{second['id']}/metrics").json()
        assert metrics["pinned"] == 1 and metrics["steps"]["draft"]["pinned"] is True
        assert metrics["steps"]["draft"]["tokens"] == 0 and not metrics["steps"]["review"].get("pinned")

        third = run_once(client, workflow, use_pins=False)
        assert len(fake.requests) == 5 and third["pins"] == []
        assert not any(e["data"].get("pinned") for e in events(client, third["id"]))

    listed = client.get(f"/api/v1/workflows/{workflow}/pins").json()
    assert [(p["step_path"], p["content"]) for p in listed] == [("draft", "THE PINNED DRAFT")]
    export = client.get(f"/api/v1/workflows/{workflow}/export").content.decode()
    assert "THE PINNED DRAFT" not in export and "step_path" not in export
    cleared = client.delete(f"/api/v1/workflows/{workflow}/pins")
    assert cleared.status_code == 200 and cleared.json() == {"count": 1}
    assert client.get(f"/api/v1/workflows/{workflow}/pins").json() == []


def test_a_round_pins_every_execution_under_it_and_a_step_clears_alone(owner_client):
    flow = """name: rounds
agents:
  writer: {description: Writes.}
steps:
  - id: dev
    loop:
      maxIterations: 2
      steps:
        - {id: draft, agent: writer, instructions: Draft.}
        - {id: check, agent: writer, instructions: Check., dependsOn: [draft]}
"""
    workflow = post(owner_client, "/api/v1/workflows", {"source": flow}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off"}).json()["id"])
    made = post(owner_client, f"/api/v1/runs/{run['id']}/pins", {"step": "dev.1"})
    assert made.status_code == 201, made.content
    assert sorted(p["step_path"] for p in made.json()) == ["dev.1.check", "dev.1.draft"]
    assert owner_client.delete(f"/api/v1/workflows/{workflow}/pins?step=dev.1.draft").json() == {"count": 1}
    assert [p["step_path"] for p in owner_client.get(f"/api/v1/workflows/{workflow}/pins").json()] == ["dev.1.check"]


def test_a_foreach_pins_each_item(owner_client):
    flow = "name: items\nsteps:\n  - id: each\n    instructions: Handle it.\n    loop: {forEach: [1, 2, 3]}\n"
    workflow = post(owner_client, "/api/v1/workflows", {"source": flow}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off"}).json()["id"])
    made = post(owner_client, f"/api/v1/runs/{run['id']}/pins", {"step": "each"})
    assert made.status_code == 201, made.content
    assert sorted(p["step_path"] for p in made.json()) == ["each[0]", "each[1]", "each[2]"]
    again = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off"}).json()["id"])
    assert again["pins"] == ["each[0]", "each[1]", "each[2]"]
    metrics = owner_client.get(f"/api/v1/runs/{again['id']}/metrics").json()
    assert metrics["pinned"] == 3 and metrics["tokens"]["total"] == 0
    assert owner_client.delete(f"/api/v1/workflows/{workflow}/pins?step=each").json() == {"count": 3}


def test_bad_input_is_refused_naming_the_field(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW.replace("openai/gpt-test", "gpt-test")}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off"}).json()["id"])
    unknown = post(owner_client, f"/api/v1/runs/{run['id']}/pins", {"step": "nowhere"})
    assert unknown.status_code == 400 and unknown.json()["detail"].startswith("step:") and "draft" in unknown.json()["detail"]
    empty = post(owner_client, f"/api/v1/runs/{run['id']}/pins", {"step": " "})
    assert empty.status_code == 400 and "step" in empty.json()["detail"]
    many = post(owner_client, f"/api/v1/runs/{run['id']}/pins", {"step": "nowhere", "content": 3})
    assert many.status_code in (400, 422)
    assert post(owner_client, f"/api/v1/runs/{run['id']}/pins", {}).status_code == 422


def test_who_may_list_pin_and_clear(owner_client, owner, stranger_client):
    User = get_user_model()
    team = create_team(owner, "Team")
    viewer, runner = User.objects.create_user("viewer"), User.objects.create_user("runner")
    Membership.objects.create(workspace=team, user=viewer, role=Role.VIEWER)
    Membership.objects.create(workspace=team, user=runner, role=Role.RUNNER)
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW.replace("openai/gpt-test", "gpt-test"),
                                                       "workspace_id": team.pk}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "coordinator": "off"}).json()["id"])
    for who in (client_for(viewer), client_for(runner)):
        refused = post(who, f"/api/v1/runs/{run['id']}/pins", {"step": "draft"})
        assert refused.status_code == 403 and "edit" in refused.json()["detail"]
    assert post(stranger_client, f"/api/v1/runs/{run['id']}/pins", {"step": "draft"}).status_code == 404
    assert post(owner_client, f"/api/v1/runs/{run['id']}/pins", {"step": "draft"}).status_code == 201
    assert [p["step_path"] for p in client_for(viewer).get(f"/api/v1/workflows/{workflow}/pins").json()] == ["draft"]
    assert stranger_client.get(f"/api/v1/workflows/{workflow}/pins").status_code == 404
    assert client_for(runner).delete(f"/api/v1/workflows/{workflow}/pins").status_code == 403
    assert stranger_client.delete(f"/api/v1/workflows/{workflow}/pins").status_code == 404
    assert owner_client.delete(f"/api/v1/workflows/{workflow}/pins").json() == {"count": 1}

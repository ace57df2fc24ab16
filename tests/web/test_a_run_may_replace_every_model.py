"""POST /runs with `model_override`: `model` replaces every agent's own for that run (upstream's --model), the run
says so, a fork keeps it; without it `model` stays a default for agents naming none; an empty model is refused."""
import pytest

from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: named models
agents:
  writer: {description: writes, model: gpt-4o}
  plain: {description: names no model}
steps:
  - {id: draft, agent: writer, instructions: Draft.}
  - {id: note, agent: plain, instructions: Note., dependsOn: [draft]}
"""




def called(client, run_id) -> dict[str, str]:
    events = client.get(f"/api/v1/runs/{run_id}/events").json()
    return {e["stepId"]: e["data"]["model"] for e in events
            if e["type"] == "agent_turn" and e["data"].get("phase") == "request"}


def start(client, **fields):
    workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    # The coordinator is the engine test's (it follows the override too); here only the steps are counted.
    return post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "coordinator": "off", **fields})


def test_the_override_replaces_every_model_and_the_run_says_so(owner_client):
    created = start(owner_client, model="gpt-4o-mini", model_override=True)
    assert created.status_code == 201, created.content
    run = wait_for(owner_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    assert run["model"] == "gpt-4o-mini" and run["model_override"] is True
    assert called(owner_client, run["id"]) == {"draft": "gpt-4o-mini", "note": "gpt-4o-mini"}
    fork = post(owner_client, f"/api/v1/runs/{run['id']}/fork", {"at": {"step": "note"}})
    assert fork.status_code == 201, fork.content
    assert fork.json()["model_override"] is True
    forked = wait_for(owner_client, fork.json()["id"])
    assert called(owner_client, forked["id"])["note"] == "gpt-4o-mini"


def test_without_it_the_model_is_only_a_default(owner_client):
    run = wait_for(owner_client, start(owner_client, model="gpt-4o-mini").json()["id"])
    assert run["model_override"] is False
    assert called(owner_client, run["id"]) == {"draft": "gpt-4o", "note": "gpt-4o-mini"}


def test_an_override_without_a_model_is_refused_naming_the_field(owner_client):
    answer = start(owner_client, model_override=True)
    assert answer.status_code == 400
    assert "model_override" in answer.json()["detail"]

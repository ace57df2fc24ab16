"""POST /runs takes `coordinator` (narrate by default, as upstream's CLI; summary-only, off; anything else refused naming the
choices)
and `shared_memory`; the coordinator's synthesis is the run's `summary`, on the run and in the runs list."""
import json
import time

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: watched
agents:
  worker: {description: works}
steps:
  - {id: work, agent: worker, instructions: Work.}
"""
SCRIPT = {"replies": {
    "work": [{"latency": 0.05, "tool_calls": [{"name": "send_message", "arguments": {"text": "halfway"}}]}, "done"],
    "coordinator": [
        {"when": "from work: halfway", "tool_calls": [{"name": "narrate", "arguments": {"text": "Work is halfway."}}]},
        {"when": "have all ended", "tool_calls": [{"name": "finalize", "arguments": {"summary": "Work got done."}}]},
        "ok"]}}


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def finished(client, run_id, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        body = client.get(f"/api/v1/runs/{run_id}").json()
        if body["status"] in ("completed", "partial", "failed", "cancelled"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} still {body['status']}")


def start(client, **fields):
    workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    return post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": SCRIPT, **fields})


def events_of(client, run_id, kind):
    return [e for e in client.get(f"/api/v1/runs/{run_id}/events").json() if e["type"] == kind]


def test_over_http_a_run_narrates_unless_asked_otherwise(owner_client):
    # The run page shows the coordinator's lane: a run started over HTTP has upstream's default coordinator.
    created = start(owner_client)
    assert created.status_code == 201, created.content
    assert created.json()["coordinator"] == "narrate"
    run = finished(owner_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    assert run["summary"] == "Work got done."


def test_a_simulated_run_without_a_coordinator_script_still_ends_with_a_summary(owner_client):
    # No `coordinator` key in the script: the coordinator gets the simulated provider's placeholder reply (what the
    # script lacks, not its wake's news echoed), the run neither fails nor stalls because of it, and that reply stands
    # in as the summary.
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated",
                                                  "script": {"replies": {"work": ["done"]}}})
    run = finished(owner_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    assert run["coordinator"] == "narrate"
    assert run["summary"].startswith("[simulated coordinator] The script has no `coordinator` replies")
    synthesis = events_of(owner_client, run["id"], "coordinator_synthesis")
    assert [e["data"]["source"] for e in synthesis] == ["reply"]


def test_a_narrating_coordinators_synthesis_is_the_summary(owner_client):
    created = start(owner_client, coordinator="narrate")
    assert created.status_code == 201, created.content
    assert created.json()["coordinator"] == "narrate" and created.json()["summary"] == ""
    run = finished(owner_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    assert run["summary"] == "Work got done."
    assert [e["data"]["text"] for e in events_of(owner_client, run["id"], "coordinator_narration")] == ["Work is halfway."]
    listed = owner_client.get("/api/v1/runs").json()
    rows = listed["items"] if isinstance(listed, dict) else listed
    assert next(r for r in rows if r["id"] == run["id"])["summary"] == "Work got done."
    metrics = owner_client.get(f"/api/v1/runs/{run['id']}/metrics").json()
    assert metrics["steps"]["coordinator"]["kind"] == "coordinator" and metrics["steps"]["coordinator"]["tokens"] > 0
    assert "" not in metrics["steps"]
    assert list(metrics["steps"]) == ["work", "coordinator"]  # its row after the steps, though it spoke first


def test_off_runs_no_coordinator_and_send_message_answers_no_coordinator(owner_client):
    created = start(owner_client, coordinator="off")
    run = finished(owner_client, created.json()["id"])
    assert run["coordinator"] == "off" and run["summary"] == ""
    ends = [e for e in events_of(owner_client, run["id"], "tool_call") if e["data"]["phase"] == "end"]
    assert [e["data"]["output"] for e in ends] == ["dropped: no-coordinator"]
    assert events_of(owner_client, run["id"], "coordinator_narration") == []


def test_summary_only_gives_a_summary_without_narration(owner_client):
    run = finished(owner_client, start(owner_client, coordinator="summary-only").json()["id"])
    assert run["summary"] == "Work got done."
    assert events_of(owner_client, run["id"], "coordinator_narration") == []


def test_an_unknown_mode_is_refused_naming_the_choices(owner_client):
    refused = start(owner_client, coordinator="loud")
    assert refused.status_code == 400
    assert "coordinator must be one of narrate, summary-only, off" in refused.content.decode()


def test_shared_memory_is_kept_on_the_run(owner_client):
    run = finished(owner_client, start(owner_client, shared_memory=True, coordinator="off").json()["id"])
    assert run["shared_memory"] is True
    first = next(e for e in events_of(owner_client, run["id"], "agent_turn") if e.get("stepId") == "work")
    assert first["data"]["tools"][-3:] == ["send_message", "shared_memory_write", "shared_memory_read"]

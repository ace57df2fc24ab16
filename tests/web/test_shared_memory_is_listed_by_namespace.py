"""GET /runs/{id}/shared-memory: every key the run's step agents wrote, under their agent's namespace, with the step
that wrote it last and its value as written (the last write wins, a refused write leaves nothing); only members of
the run's workspace see it."""
import json
import time

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: notes
agents:
  auditor: {description: audits}
  fixer: {description: fixes}
steps:
  - {id: audit, agent: auditor, instructions: Audit.}
  - {id: fix, agent: fixer, dependsOn: [audit], instructions: Fix.}
"""
WRITE = "shared_memory_write"
SCRIPT = {"replies": {
    "audit": [
        {"tool_calls": [{"name": WRITE, "arguments": {"key": "found", "value": "3 bugs"}},
                        {"name": WRITE, "arguments": {"value": "a write without its key"}}]},
        {"tool_calls": [{"name": WRITE, "arguments": {"key": "found", "value": "4 bugs"}}]},
        "audited"],
    "fix": [
        {"tool_calls": [{"name": "shared_memory_read", "arguments": {"key": "auditor/found"}},
                        {"name": WRITE, "arguments": {"key": "plan", "value": "<b>fix</b> all 4"}}]},
        "fixed"],
}}


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


def test_keys_by_namespace_with_the_step_that_wrote_them(owner_client, stranger_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": SCRIPT,
                                                  "shared_memory": True, "coordinator": "off"})
    assert created.status_code == 201, created.content
    run = finished(owner_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]

    answer = owner_client.get(f"/api/v1/runs/{run['id']}/shared-memory")
    assert answer.status_code == 200, answer.content
    entries = answer.json()
    assert [(e["key"], e["namespace"], e["name"], e["value"], e["step_id"], e["agent"]) for e in entries] == [
        ("auditor/found", "auditor", "found", "4 bugs", "audit", "auditor"),
        ("fixer/plan", "fixer", "plan", "<b>fix</b> all 4", "fix", "fixer"),
    ]
    events = owner_client.get(f"/api/v1/runs/{run['id']}/events").json()
    ends = {e["data"]["tool_call_id"]: e for e in events if e["type"] == "tool_call" and e["data"]["phase"] == "end"}
    # Each entry names the event that finished its write: for `found`, the later of its two writes.
    writes_of_found = [e for e in ends.values() if e["data"]["output"] == "written: auditor/found"]
    assert len(writes_of_found) == 2
    assert entries[0]["seq"] == max(e["seq"] for e in writes_of_found)
    assert all(e["written_at"] for e in entries)
    # The write without a key was refused in words, and is not in the table.
    assert any(e.get("error") and "`key` is required" in e["error"] for e in ends.values())
    # The fixer read the auditor's last value.
    read = next(e for e in ends.values() if e["data"]["tool_name"] == "shared_memory_read")
    assert read["data"]["output"] == "4 bugs"

    assert stranger_client.get(f"/api/v1/runs/{run['id']}/shared-memory").status_code == 404


def test_a_run_without_shared_memory_lists_nothing(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": SCRIPT,
                                                  "coordinator": "off"})
    run = finished(owner_client, created.json()["id"])
    assert owner_client.get(f"/api/v1/runs/{run['id']}/shared-memory").json() == []

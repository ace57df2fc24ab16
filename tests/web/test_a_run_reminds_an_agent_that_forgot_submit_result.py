"""Over HTTP: a run whose agent answers with text only is reminded to call submit_result, and completes.

Ports upstream's internal/exec/agent_retry_test.go (TestZFB3_AgentRunner_RetriesSubmitResultOnMiss,
TestZFB3_AgentRunner_RetryAlsoFails_IncludesLastAssistantText) through POST /api/v1/runs with a script:
the stored events show the reminder as an ordinary request turn offering submit_result alone.
"""
import json
import time

import pytest

from runtime.engine.agent import REMINDER

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: reminded
agents:
  answerer:
    description: Answers with a structured result.
    resultSchema: {type: object, required: [answer], properties: {answer: {type: string}}}
steps:
  - {id: ask, agent: answerer, instructions: Please answer.}
"""


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


def run_scripted(client, replies):
    workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    created = post(client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow, "provider": "simulated",
                                            "script": {"replies": {"ask": replies}}})
    assert created.status_code == 201, created.content
    run = finished(client, created.json()["id"])
    return run, client.get(f"/api/v1/runs/{run['id']}/events").json()


def test_the_reminded_answer_completes_the_run(owner_client):
    run, events = run_scripted(owner_client, ["I forgot the tool.", {"result": {"answer": "42"}}])
    assert run["status"] == "completed", run["reason"]
    requests = [e for e in events if e["type"] == "agent_turn" and e["data"]["phase"] == "request"]
    assert len(requests) == 2
    assert requests[1]["data"]["input"] == [REMINDER] and requests[1]["data"]["tools"] == ["submit_result"]
    end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "ask")
    assert end["data"]["result"] == {"answer": "42"}


def test_a_run_whose_agent_ignores_the_reminder_fails_quoting_it(owner_client):
    run, events = run_scripted(owner_client, ["First text.", "Second text, still no tool."])
    assert run["status"] == "failed"
    end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "ask")
    assert end["error"] == ('resultSchema defined but submit_result never called, not even after a reminder; '
                            'its last message: "Second text, still no tool."')

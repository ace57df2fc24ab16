"""Over HTTP, a judged loop's step_end carries every worker and judge turn's tokens, and the run's metrics
still count each turn once.

Ports upstream's internal/exec/conformance_test.go ``TestUntilAgentLoop`` (token accumulation) through the web app.
"""
import pytest

from tests.support.api_calls import post, wait_for
from tests.support.ported_workflows import UNTIL_AGENT, UNTIL_AGENT_REPLIES

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_judged_loops_tokens_over_http(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": UNTIL_AGENT}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow, "provider": "simulated", "script": UNTIL_AGENT_REPLIES})
    assert created.status_code == 201, created.content
    finished = wait_for(owner_client, created.json()["id"])
    assert finished["status"] == "completed", finished["reason"]
    events = owner_client.get(f"/api/v1/runs/{finished['id']}/events").json()
    loop_end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "iterate")
    assert loop_end["tokens"] == {"prompt": 300, "completion": 150, "total": 450}
    assert finished["tokens"]["total"] == 450
    metrics = owner_client.get(f"/api/v1/runs/{finished['id']}/metrics").json()
    assert metrics["steps"]["iterate"]["tokens"] == 450 and metrics["tokens"]["total"] == 450  # not counted twice

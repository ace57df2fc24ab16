"""Over HTTP, a cumulative debate loop hands on every round's every inner step to the step after it.

Ports upstream's internal/exec/executor_test.go ``TestExecutor_LoopStep_OutputMode_Cumulative`` through the
web app: a workflow saved, run with a script, its events read back.
"""
import pytest

from tests.support.api_calls import post, wait_for
from tests.support.ported_workflows import DEBATE, WHOLE_DEBATE

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPT = {"replies": {
    "pro": ["PRO_R1: remote work boosts productivity", "PRO_R2: telemetry shows higher output"],
    "con": ["CON_R1: remote work isolates teams", "CON_R2: but onboarding suffers"],
    "judge": [{"content": "", "result": {"done": False}}, {"content": "", "result": {"done": True}}],
}}


def test_a_debate_run_over_http_ends_with_the_whole_debate_and_its_aggregator_reads_it(owner_client):
    workflow = post(owner_client, "/api/v1/workflows", {"source": DEBATE}).json()["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": SCRIPT})
    assert created.status_code == 201, created.content
    finished = wait_for(owner_client, created.json()["id"])
    assert finished["status"] == "completed", finished["reason"]
    events = owner_client.get(f"/api/v1/runs/{finished['id']}/events").json()
    loop_end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "debate-rounds")
    assert loop_end["data"]["content"] == WHOLE_DEBATE
    aggregator = next(e["data"]["prompt"]["user"] for e in events
                      if e["type"] == "agent_turn" and e.get("stepId") == "verdict" and e["data"].get("prompt"))
    assert WHOLE_DEBATE.strip() in aggregator

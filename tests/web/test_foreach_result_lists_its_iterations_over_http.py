"""Over HTTP, a forEach step's result lists its iterations and a condition after it reads them; a condition
that reads a missing field skips its step, as upstream's runner does, and says why.

Ports upstream's internal/exec/foreach_test.go ``TestExecutor_ForEach_ResultAggregation`` through the web app.
"""
import pytest

from tests.support.api_calls import post, wait_for
from tests.support.ported_workflows import FOREACH_PROC, FOREACH_PROC_REPLIES

pytestmark = pytest.mark.django_db(transaction=True)


def run_over_http(client, source: str) -> tuple[dict, list[dict]]:
    workflow = post(client, "/api/v1/workflows", {"source": source}).json()["id"]
    created = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": FOREACH_PROC_REPLIES})
    assert created.status_code == 201, created.content
    finished = wait_for(client, created.json()["id"])
    return finished, client.get(f"/api/v1/runs/{finished['id']}/events").json()


def ended(events: list[dict], step_id: str) -> dict:
    return next(e for e in events if e["type"] == "step_end" and e["stepId"] == step_id)


def test_the_foreach_result_and_the_condition_that_reads_it_over_http(owner_client):
    finished, events = run_over_http(owner_client, FOREACH_PROC)
    assert finished["status"] == "completed", finished["reason"]
    listed = ended(events, "proc")["data"]["result"]["iterations"]
    assert [(i["id"], i["index"], i["item"], i["content"], i["status"]) for i in listed] == [
        ("proc[0]", 0, "x", "result-1", "completed"), ("proc[1]", 1, "y", "result-2", "completed"),
        ("proc[2]", 2, "z", "result-3", "completed")]
    assert ended(events, "after")["data"]["status"] == "completed"


def test_a_condition_on_a_missing_field_skips_its_step_over_http(owner_client):
    source = FOREACH_PROC.replace("steps.proc.result.iterations[0].content == 'result-1' && "
                          "steps.proc.result.iterations[2].item == 'z'", "steps.proc.result.nope == 1")
    finished, events = run_over_http(owner_client, source)
    assert finished["status"] == "completed"  # a skipped step is not a failure
    skipped = next(e for e in events if e["type"] == "step_skipped" and e["stepId"] == "after")
    assert skipped["data"]["missing"] == "`steps.proc.result` has no field `nope` (it has: iterations)"
    assert any(e["type"] == "message" and e["stepId"] == "after" and "missing data" in e["message"] for e in events)
    assert not any(e["type"] == "step_end" and e["stepId"] == "after" for e in events)

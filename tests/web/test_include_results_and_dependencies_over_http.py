"""Over HTTP, an include step's result carries its inner steps by namespaced id, and the outputs of its own
dependencies reach the included workflow's root steps.

Ports upstream's internal/exec/include_test.go ``TestExecutor_Include_NamespacedInnerStepIDs`` and
``TestExecutor_Include_ParentDepResultsInjected`` through the web app: the two files imported as a folder.
"""
import pytest

from tests.support.api_calls import post, wait_for
from tests.support.ported_workflows import INCLUDE_BUILD, INCLUDE_MAIN, INCLUDE_REPLIES
from tests.support.zips import upload, zipped

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_include_runs_over_http_with_its_inner_steps_in_its_result_and_its_dependency_in_its_prompt(owner_client):
    made = upload(owner_client, zipped({"main.yaml": INCLUDE_MAIN.encode(), "build.yaml": INCLUDE_BUILD.encode()}), main="main.yaml")
    assert made.status_code in (200, 201), made.content
    workflow = made.json()["workflows"][0]["id"]
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": INCLUDE_REPLIES})
    assert created.status_code == 201, created.content
    finished = wait_for(owner_client, created.json()["id"], timeout=60)
    assert finished["status"] == "completed", finished["reason"]
    events = owner_client.get(f"/api/v1/runs/{finished['id']}/events").json()
    include_end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "do_build")
    assert include_end["data"]["result"]["innerSteps"] == {
        "do_build.compile": {"content": "compiled", "status": "completed"},
        "do_build.test_step": {"content": "tests passed", "status": "completed"}}
    assert include_end["tokens"] == {"prompt": 10, "completion": 6, "total": 16}
    root = next(e["data"]["prompt"]["user"] for e in events
                if e["type"] == "agent_turn" and e.get("stepId") == "do_build.compile" and e["data"].get("prompt"))
    assert "setup done: toolchain 1.2 ready" in root
    report = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "report")
    assert report["data"]["status"] == "completed"  # its condition read the include's innerSteps

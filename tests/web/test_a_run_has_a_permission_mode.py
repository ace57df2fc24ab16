"""POST /runs takes `permissions` (upstream's --allow/--deny/--strict/--sandbox/--yolo): checked naming the field,
stored on the run, applied by the worker where each call is carried out, and kept by a fork."""
import pytest

from tests.support.api_calls import post, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: permitted
agents:
  worker: {description: works, tools: [bash, write]}
steps:
  - {id: work, agent: worker, instructions: Work.}
"""
SCRIPT = {"replies": {"work": [{"tool_calls": [{"id": "b", "name": "bash", "arguments": {"command": "echo hi"}},
                                               {"id": "w", "name": "write", "arguments": {"path": "a.txt", "content": "x"}}]},
                               "done"]}}




def start(client, **fields):
    workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    return post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": SCRIPT, **fields})


def outputs(client, run_id) -> dict[str, str]:
    return {e["data"]["tool_call_id"]: e["data"]["output"] for e in client.get(f"/api/v1/runs/{run_id}/events").json()
            if e["type"] == "tool_call" and e["data"]["phase"] == "end"}


def test_a_denied_tool_never_runs_and_a_fork_keeps_the_mode(owner_client):
    created = start(owner_client, permissions={"deny": ["bash"]})
    assert created.status_code == 201, created.content
    run = wait_for(owner_client, created.json()["id"])
    assert run["permissions"] == {"deny": ["bash"]}
    said = outputs(owner_client, run["id"])
    assert said["b"] == "error: not run: 'bash' is denied for this run (permissions: deny)"
    assert not said["w"].startswith("error")
    fork = post(owner_client, f"/api/v1/runs/{run['id']}/fork", {"at": {"step": "work"}})
    assert fork.status_code == 201, fork.content
    forked = wait_for(owner_client, fork.json()["id"])
    assert forked["permissions"] == {"deny": ["bash"]}
    assert outputs(owner_client, forked["id"])["b"].startswith("error: not run: 'bash' is denied")


@pytest.mark.parametrize(("mode", "words"), [
    ({"sandbox": True, "yolo": True}, "sandbox and yolo exclude each other"),
    ({"allow": ["rm"]}, "permissions.allow: unknown tool 'rm'"),
    ({"strict": 1}, "permissions.strict: expected true or false"),
])
def test_a_mode_that_cannot_be_is_refused_naming_the_field(owner_client, mode, words):
    answer = start(owner_client, permissions=mode)
    assert answer.status_code == 400
    assert words in answer.json()["detail"]

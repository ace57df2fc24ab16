"""Every permission mode over POST /runs, as upstream's flags (--allow, --deny, --strict, --sandbox, --yolo) with
today's ask-before gate beside them, executed by the worker: allowed tools run and the rest wait for a person (who
answers over HTTP); strict refuses the rest; sandbox runs read, write, grep and glob only; yolo runs what ask-before
holds without asking; deny wins in every mode; and the engine's submit_result is never a tool a mode can refuse."""
import pytest

from tests.support.api_calls import post, wait_for, wait_for_events

pytestmark = pytest.mark.django_db(transaction=True)

FLOW = """name: modes
agents:
  worker: {description: works, tools: [bash, read, write, edit, grep]}
  reporter:
    description: reports
    tools: [read]
    resultSchema: {type: object, required: [ok], properties: {ok: {type: boolean}}}
steps:
  - {id: work, agent: worker, instructions: Work.}
  - {id: report, agent: reporter, instructions: Report., dependsOn: [work]}
"""
SCRIPT = {"replies": {
    "work": [{"tool_calls": [{"id": "b", "name": "bash", "arguments": {"command": "echo hi"}},
                             {"id": "w", "name": "write", "arguments": {"path": "a.txt", "content": "x"}},
                             {"id": "e", "name": "edit", "arguments": {"path": "a.txt", "old_string": "x", "new_string": "y"}},
                             {"id": "g", "name": "grep", "arguments": {"pattern": "x"}}]},
             "done"],
    "report": [{"content": "all good", "result": {"ok": True}}],
}}
REFUSED = "error: not run: "


def start(client, **fields) -> str:
    workflow = post(client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    created = post(client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": SCRIPT,
                                            "coordinator": "off", **fields})
    assert created.status_code == 201, created.content
    return created.json()["id"]


def calls(client, run_id) -> dict[str, str]:
    """Each ended call's output by id (submit_result's as its status)."""
    out = {}
    for e in client.get(f"/api/v1/runs/{run_id}/events").json():
        if e["type"] == "tool_call" and e["data"]["phase"] == "end":
            o = e["data"]["output"]
            out[e["data"]["tool_call_id"]] = o if isinstance(o, str) else o.get("status", "")
    return out


def asked(client, run_id) -> set[str]:
    return {e["data"]["tool_call_id"] for e in client.get(f"/api/v1/runs/{run_id}/events").json()
            if e["type"] == "tool_approval" and e["data"]["phase"] == "asked"}


def finished(client, run_id) -> dict:
    run = wait_for(client, run_id)
    assert run["status"] == "completed", run["reason"]
    return run


def submitted(out: dict[str, str]) -> bool:
    return [v for k, v in out.items() if k not in "bweg"] == ["ok"]


def test_strict_runs_only_the_allowed_tools_and_still_takes_a_result(owner_client):
    run_id = start(owner_client, permissions={"allow": ["write", "grep"], "strict": True})
    run = finished(owner_client, run_id)
    assert run["permissions"] == {"allow": ["grep", "write"], "strict": True}
    out = calls(owner_client, run_id)
    assert out["b"] == (REFUSED + "'bash' is not on this run's allow list (grep, write), and the run is strict "
                        "(permissions: strict)")
    assert out["e"].startswith(REFUSED + "'edit' is not on this run's allow list")
    assert not out["w"].startswith("error") and not out["g"].startswith("error")
    assert asked(owner_client, run_id) == set()
    assert submitted(out)  # submit_result is the engine's, not a tool of the workspace


def test_sandbox_runs_read_write_grep_and_glob_only(owner_client):
    run_id = start(owner_client, permissions={"sandbox": True})
    assert finished(owner_client, run_id)["permissions"] == {"sandbox": True}
    out = calls(owner_client, run_id)
    assert out["b"].startswith(REFUSED + "this run is in sandbox mode: only glob, grep, read, write run, not 'bash'")
    assert out["e"].startswith(REFUSED + "this run is in sandbox mode")
    assert not out["w"].startswith("error") and not out["g"].startswith("error")
    assert submitted(out)


def test_sandbox_never_runs_bash_even_when_it_is_allowed(owner_client):
    run_id = start(owner_client, permissions={"sandbox": True, "allow": ["bash", "write", "grep"]})
    finished(owner_client, run_id)
    out = calls(owner_client, run_id)
    assert out["b"].startswith(REFUSED + "this run is in sandbox mode")
    assert not out["w"].startswith("error") and asked(owner_client, run_id) == set()


def test_yolo_runs_what_ask_before_holds_without_asking_and_deny_still_wins(owner_client):
    run_id = start(owner_client, permissions={"yolo": True, "deny": ["edit"]}, ask_before=["bash", "write"])
    assert finished(owner_client, run_id)["permissions"] == {"deny": ["edit"], "yolo": True}
    out = calls(owner_client, run_id)
    assert out["b"].strip() == "hi" and not out["w"].startswith("error")
    assert out["e"] == REFUSED + "'edit' is denied for this run (permissions: deny)"
    assert asked(owner_client, run_id) == set()


def test_deny_wins_over_sandbox(owner_client):
    run_id = start(owner_client, permissions={"sandbox": True, "deny": ["write"]})
    finished(owner_client, run_id)
    assert calls(owner_client, run_id)["w"] == REFUSED + "'write' is denied for this run (permissions: deny)"


def test_an_allow_list_asks_a_person_for_the_rest_who_answers_over_http(owner_client):
    run_id = start(owner_client, permissions={"allow": ["write", "grep"]})
    wait_for_events(owner_client, run_id, "tool_approval")
    # Both calls outside the list wait; one is approved, one denied with a reason the model reads.
    while asked(owner_client, run_id) != {"b", "e"}:
        wait_for_events(owner_client, run_id, "tool_approval")
    approve = post(owner_client, f"/api/v1/runs/{run_id}/tool-calls/b/approve", {})
    assert approve.status_code == 200, approve.content
    deny = post(owner_client, f"/api/v1/runs/{run_id}/tool-calls/e/deny", {"reason": "no edits today"})
    assert deny.status_code == 200, deny.content
    finished(owner_client, run_id)
    out = calls(owner_client, run_id)
    assert out["b"].strip() == "hi"
    assert "no edits today" in out["e"]
    assert not out["w"].startswith("error") and not out["g"].startswith("error")


@pytest.mark.parametrize(("mode", "words"), [
    ({"allow": ["bash"], "deny": ["bash"]}, "bash cannot be both allowed and denied"),
    ({"deny": ["rm"]}, "permissions.deny: unknown tool 'rm'"),
    ({"yolo": "yes"}, "permissions.yolo: expected true or false"),
    ({"sandbox": True, "yolo": True, "strict": True}, "sandbox and yolo exclude each other"),
])
def test_more_modes_that_cannot_be_are_refused_naming_the_field(owner_client, mode, words):
    workflow = post(owner_client, "/api/v1/workflows", {"source": FLOW}).json()["id"]
    answer = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "permissions": mode})
    assert answer.status_code == 400, answer.content
    assert words in answer.json()["detail"]

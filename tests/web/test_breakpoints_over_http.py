"""Breakpoints over HTTP: a workflow keeps them beside itself (never in its export), each refusal names its field;
a run holds at one, says what its next agent turn will receive, takes edits, and goes on with Continue; a run
may add its own breakpoints or turn the workflow's off; a context file of the pending step is edited at a hold by a
runner or above, any other path refused naming it."""
from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Membership, Role
from accounts.workspaces import create_team
from tests.support.api_calls import client_for, post, wait_for, wait_for_events
from tests.support.zips import upload, zipped

pytestmark = pytest.mark.django_db(transaction=True)

TEN_ROUNDS = """name: ten
steps:
  - id: write
    instructions: Write the next draft.
    loop:
      maxIterations: 10
"""
SCRIPT = {"replies": {"write": [f"draft {i}" for i in range(10)]}}


def put(client, path, body):
    return client.put(path, data=json.dumps(body), content_type="application/json")


@pytest.fixture
def workflow_id(owner_client):
    return post(owner_client, "/api/v1/workflows", {"source": TEN_ROUNDS}).json()["id"]


def held(client, run_id, timeout=60) -> dict:
    """The run's hold, once it holds (polls: a busy machine only makes it wait longer)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(f"/api/v1/runs/{run_id}/debug").json()
        if answer["holding"]:
            return answer
        assert time.monotonic() < deadline, f"run {run_id} never held ({answer['status']})"
        time.sleep(0.05)


def until_edited(client, run_id, field, timeout=60) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        answer = client.get(f"/api/v1/runs/{run_id}/debug").json()
        if field in ((answer["hold"] or {}).get("edits") or {}):
            return answer
        assert time.monotonic() < deadline, f"the edit of {field} never reached run {run_id}"
        time.sleep(0.05)


def test_breakpoints_are_kept_beside_the_workflow_and_never_exported(owner_client, workflow_id):
    saved = put(owner_client, f"/api/v1/workflows/{workflow_id}/breakpoints",
                {"breakpoints": [{"kind": "round", "step": "write", "round": 3}]})
    assert saved.status_code == 200
    assert saved.json()["breakpoints"] == [{"id": "bp1", "kind": "round", "step": "write", "round": 3}]
    assert owner_client.get(f"/api/v1/workflows/{workflow_id}/breakpoints").json() == saved.json()
    assert "bp1" not in owner_client.get(f"/api/v1/workflows/{workflow_id}/export").content.decode()
    assert owner_client.get(f"/api/v1/workflows/{workflow_id}").json()["version"] == 1  # no new version


@pytest.mark.parametrize(("breakpoints", "field"), [
    ([{"kind": "round", "step": "write", "round": -1}], "breakpoints[0].round"),
    ([{"kind": "step", "step": "nowhere"}], "breakpoints[0].step"),
    ([{"kind": "step", "step": "write"}, {"kind": "teleport"}], "breakpoints[1].kind"),
    ([{"kind": "judge", "step": "write"}], "breakpoints[0].step"),
    ([{"kind": "condition", "condition": "steps.write.content.contains("}], "breakpoints[0].condition"),
    ([{"kind": "tool"}], "breakpoints[0].tool"),
    ([{"kind": "step", "step": "write", "when": 3}], "breakpoints[0].when"),
    ([{"id": "a", "kind": "step", "step": "write"}, {"id": "a", "kind": "tool", "tool": "bash"}], "breakpoints[1].id"),
])
def test_a_bad_breakpoint_is_refused_naming_its_field(owner_client, workflow_id, breakpoints, field):
    answer = put(owner_client, f"/api/v1/workflows/{workflow_id}/breakpoints", {"breakpoints": breakpoints})
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith(field + ":")
    run = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": SCRIPT, "breakpoints": breakpoints})
    assert run.status_code == 422 and run.json()["detail"].startswith(field + ":")


def test_a_run_holds_before_round_3_shows_its_inputs_takes_an_edit_and_continues(owner_client, workflow_id):
    put(owner_client, f"/api/v1/workflows/{workflow_id}/breakpoints",
        {"breakpoints": [{"id": "r3", "kind": "round", "step": "write", "round": 3}]})
    run_id = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": SCRIPT}).json()["id"]
    answer = held(owner_client, run_id)
    hold = answer["hold"]
    assert answer["status"] == "paused"
    assert hold["breakpoint"]["id"] == "r3" and hold["where"] == {"kind": "round", "loop": "write", "round": 3}
    assert hold["inputs"]["previous_output"] == "draft 2"
    assert "draft 2" in hold["inputs"]["prompt"]["user"]
    assert set(hold["editable"]) == {"previous_output", "instructions"} and hold["skippable"]

    refused = post(owner_client, f"/api/v1/runs/{run_id}/debug", {"action": "edit", "field": "item", "value": 1})
    assert refused.status_code == 422 and refused.json()["detail"].startswith("field:")
    refused = post(owner_client, f"/api/v1/runs/{run_id}/debug", {"action": "continue", "key": "elsewhere"})
    assert refused.status_code == 409 and refused.json()["detail"].startswith("key:")

    edit = post(owner_client, f"/api/v1/runs/{run_id}/debug",
                {"action": "edit", "field": "previous_output", "value": "A DRAFT EDITED AT 2 A.M.", "key": hold["key"]})
    assert edit.status_code == 200
    edited = until_edited(owner_client, run_id, "previous_output")
    assert "A DRAFT EDITED AT 2 A.M." in edited["hold"]["inputs"]["prompt"]["user"]
    assert post(owner_client, f"/api/v1/runs/{run_id}/debug", {"action": "continue"}).status_code == 200
    assert wait_for(owner_client, run_id)["status"] == "completed"

    events = owner_client.get(f"/api/v1/runs/{run_id}/events").json()
    [hit] = [e for e in events if e["type"] == "breakpoint_hit"]
    assert hit["data"]["key"] == hold["key"]
    actions = [(e["data"]["action"], e["data"].get("actor")) for e in events if e["type"] == "debug_action"]
    assert actions == [("edit", "owner"), ("continue", "owner")]
    [request] = [e for e in events if e["type"] == "agent_turn" and e.get("stepId") == "write.3"
                 and e["data"].get("phase") == "request"]
    assert "A DRAFT EDITED AT 2 A.M." in request["data"]["prompt"]["user"]
    assert owner_client.get(f"/api/v1/runs/{run_id}/debug").json()["holding"] is False


def test_a_run_may_turn_the_workflows_breakpoints_off_and_bring_its_own(owner_client, workflow_id):
    put(owner_client, f"/api/v1/workflows/{workflow_id}/breakpoints",
        {"breakpoints": [{"kind": "round", "step": "write", "round": 1}]})
    run_id = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": SCRIPT,
                                                  "breakpoints_off": True}).json()["id"]
    assert wait_for(owner_client, run_id)["status"] == "completed"
    assert not [e for e in owner_client.get(f"/api/v1/runs/{run_id}/events").json() if e["type"] == "breakpoint_hit"]

    run_id = post(owner_client, "/api/v1/runs", {
        "workflow_id": workflow_id, "script": SCRIPT, "breakpoints_off": True,
        "breakpoints": [{"id": "mine", "kind": "step", "step": "write", "round": 8}]}).json()["id"]
    hold = held(owner_client, run_id)["hold"]
    assert hold["breakpoint"]["id"] == "mine" and hold["where"] == {"kind": "step", "step": "write.8"}
    skip = post(owner_client, f"/api/v1/runs/{run_id}/debug", {"action": "skip", "output": "typed instead"})
    assert skip.status_code == 200
    assert wait_for(owner_client, run_id)["status"] == "completed"
    [end] = wait_for_events(owner_client, run_id, "step_end", step_id="write.8")
    assert end["data"]["content"] == "typed instead"


def test_a_runs_own_breakpoints_are_checked_without_being_kept(owner_client, workflow_id):
    url = f"/api/v1/workflows/{workflow_id}/breakpoints/check"
    checked = post(owner_client, url, {"breakpoints": [{"id": "run-1", "kind": "step", "step": "write", "round": 2}]})
    assert checked.status_code == 200
    assert checked.json()["breakpoints"] == [{"id": "run-1", "kind": "step", "step": "write", "round": 2}]
    assert owner_client.get(f"/api/v1/workflows/{workflow_id}/breakpoints").json()["breakpoints"] == []

    refused = post(owner_client, url, {"breakpoints": [{"kind": "judge", "step": "write"}]})
    assert refused.status_code == 422 and refused.json()["detail"].startswith("breakpoints[0].step:")
    # Against a draft's steps when given: the step the editor just added is known before it is saved.
    draft = {"name": "ten", "steps": [{"id": "write", "instructions": "x"}, {"id": "polish", "instructions": "y"}]}
    assert post(owner_client, url, {"breakpoints": [{"kind": "step", "step": "polish"}]}).status_code == 422
    assert post(owner_client, url, {"breakpoints": [{"kind": "step", "step": "polish"}], "document": draft}).status_code == 200


def test_commands_need_a_hold(owner_client, workflow_id):
    run_id = post(owner_client, "/api/v1/runs", {"workflow_id": workflow_id, "script": SCRIPT}).json()["id"]
    wait_for(owner_client, run_id)
    answer = post(owner_client, f"/api/v1/runs/{run_id}/debug", {"action": "step"})
    assert answer.status_code == 409 and "not held at a breakpoint" in answer.json()["detail"]
    answer = post(owner_client, f"/api/v1/runs/{run_id}/debug", {"action": "jump"})
    assert answer.status_code == 422


NOTED = """name: noted
steps:
  - {id: plan, instructions: Plan the week.}
  - id: review
    instructions: Review the plan against the notes.
    dependsOn: [plan]
    contextFiles: [notes/deadline.md]
"""


def test_a_context_file_is_edited_at_a_hold_and_the_resumed_run_sends_it(owner_client, owner, stranger_client):
    team = create_team(owner, "Team")
    viewer = get_user_model().objects.create_user("viewer")
    Membership.objects.create(workspace=team, user=viewer, role=Role.VIEWER)
    bundle = zipped({"noted.yaml": NOTED.encode(), "notes/deadline.md": b"The deadline is Friday."})
    made = upload(owner_client, bundle, main="noted.yaml", workspace=team.pk)
    assert made.status_code == 201, made.content
    workflow_id = made.json()["workflows"][0]["id"]
    run_id = post(owner_client, "/api/v1/runs", {
        "workflow_id": workflow_id, "coordinator": "off", "script": {"replies": {"plan": ["a plan"], "review": ["ok"]}},
        "breakpoints": [{"id": "r", "kind": "step", "step": "review"}]}).json()["id"]
    hold = held(owner_client, run_id)["hold"]
    assert "context_file" in hold["editable"]
    assert hold["inputs"]["context_files"][0]["text"] == "The deadline is Friday."

    def edit(client, path, value="The deadline moved to Monday."):
        return post(client, f"/api/v1/runs/{run_id}/debug", {"action": "edit", "field": "context_file", "path": path,
                                                               "value": value, "key": hold["key"]})

    assert edit(client_for(viewer), "notes/deadline.md").status_code == 403
    assert edit(stranger_client, "notes/deadline.md").status_code == 404
    outside = edit(owner_client, "../../etc/passwd")
    assert outside.status_code == 400 and "../../etc/passwd" in outside.json()["detail"]
    assert outside.json()["detail"].startswith("path:")
    unnamed = edit(owner_client, "notes/other.md")
    assert unnamed.status_code == 400 and "notes/other.md" in unnamed.json()["detail"]
    assert edit(owner_client, "").status_code == 422
    assert edit(owner_client, "notes/deadline.md").status_code == 200
    edited = until_edited(owner_client, run_id, "context_file")
    assert edited["hold"]["edits"]["context_file"] == {"notes/deadline.md": "The deadline moved to Monday."}
    assert "The deadline moved to Monday." in edited["hold"]["inputs"]["prompt"]["user"]

    # The run's own Resume goes on as Continue; the edit is in the prompt it sends.
    assert post(owner_client, f"/api/v1/runs/{run_id}/resume", {}).status_code == 200
    assert wait_for(owner_client, run_id)["status"] == "completed"
    events = owner_client.get(f"/api/v1/runs/{run_id}/events").json()
    [request] = [e for e in events if e["type"] == "agent_turn" and e.get("stepId") == "review"
                 and e["data"].get("phase") == "request"]
    assert "The deadline moved to Monday." in request["data"]["prompt"]["user"]
    assert "The deadline is Friday." not in request["data"]["prompt"]["user"]
    [action] = [e for e in events if e["type"] == "debug_action" and e["data"]["action"] == "edit"]
    assert action["data"]["path"] == "notes/deadline.md" and action["data"]["actor"] == "owner"
    assert edit(owner_client, "notes/deadline.md").status_code == 409  # held nowhere now

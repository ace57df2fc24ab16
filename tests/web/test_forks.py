"""Re-run from here over HTTP: POST /runs/{id}/fork starts a new run at a step, a round or an item of a
finished run, inheriting its events up to there (not run, not billed again), with edits; and the CLI."""
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from accounts.models import Membership
from accounts.workspaces import create_team
from designer import workflows
from designer.models import Workflow
from runtime.live.recorder import persist_events
from runtime.models import Run, RunEvent
from runtime.runs.forks import workspace_at
from tests.support.api_calls import post, wait_for
from tests.support.checkpoints import EACH, EACH_SCRIPT, TEN_ROUNDS, TEN_SCRIPT

pytestmark = pytest.mark.django_db(transaction=True)

# The edited judge is satisfied sooner: it says done at round 6 (the parent's judge waited for round 9).
STRICT_SCRIPT = {**TEN_SCRIPT, "replies": {**TEN_SCRIPT["replies"],
                                           "write.6.untilAgent": [{"content": "good", "result": {"done": True, "reason": "ok"}}]}}





def finished_run(client, source, script) -> dict:
    workflow = post(client, "/api/v1/workflows", {"source": source}).json()["id"]
    created = post(client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow, "script": script})
    assert created.status_code == 201, created.content
    run = wait_for(client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    return run


def events_of(client, run_id) -> list[dict]:
    return client.get(f"/api/v1/runs/{run_id}/events").json()


def asked(events: list[dict]) -> list[str]:
    """The steps the provider was called for (each call starts with a request turn)."""
    return [e["stepId"] for e in events if e["type"] == "agent_turn" and e["data"].get("phase") == "request"]


def bare(event: dict) -> dict:
    return {k: v for k, v in event.items() if k not in ("inherited", "runId")}


def test_a_fork_at_round_5_with_an_edited_judge_asks_only_from_round_5_and_inherits_the_rest(owner_client):
    parent = finished_run(owner_client, TEN_ROUNDS, TEN_SCRIPT)
    parent_events = events_of(owner_client, parent["id"])
    judge = post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {
        "at": {"step": "write", "iteration": 5}, "script": STRICT_SCRIPT,
        "patch": [{"op": "add", "path": "/agents/judge/prompt", "value": "Stop as soon as a draft is good."}]})
    assert judge.status_code == 201, judge.content
    fork = judge.json()
    assert fork["parent"] == parent["id"] and fork["version"] == 2
    assert fork["fork_point"]["step"] == "write" and fork["fork_point"]["iteration"] == 5
    assert fork["fork_point"]["kind"] == "round" and fork["fork_point"]["edited"] == ["patch", "script"]
    seq = fork["start_seq"]
    assert seq == fork["fork_point"]["seq"] and seq > 0

    done = wait_for(owner_client, fork["id"])
    assert done["status"] == "completed", done["reason"]
    events = events_of(owner_client, fork["id"])
    inherited, own = [e for e in events if e["seq"] <= seq], [e for e in events if e["seq"] > seq]
    assert [bare(e) for e in inherited] == [bare(e) for e in parent_events if e["seq"] <= seq]
    assert all(e["inherited"] is True and e["runId"] == fork["id"] for e in inherited)
    assert not any("inherited" in e for e in own) and own[0]["seq"] == seq + 1
    assert own[0]["type"] == "workflow_start" and own[0]["data"]["from_checkpoint"] == seq
    calls = asked(own)
    assert calls == ["write.5", "write.5.untilAgent", "write.6", "write.6.untilAgent", "publish"]
    judged = [e for e in own if e["type"] == "agent_turn" and e["stepId"].endswith("untilAgent") and "prompt" in e["data"]]
    assert all("Stop as soon as a draft is good." in e["data"]["prompt"]["system"] for e in judged)
    assert "Stop as soon" not in json.dumps(parent_events)

    assert done["loops"]["write"] == {"rounds_completed": 7, "broke_early": True, "break_reason": "judge"}
    assert parent["loops"]["write"]["rounds_completed"] == 10
    rows = owner_client.get(f"/api/v1/runs/{fork['id']}/iterations?step=write").json()
    assert [r["iteration"] for r in rows] == list(range(7))
    assert rows[4]["verdict"]["done"] is False  # inherited with its verdict
    compared = owner_client.get(f"/api/v1/runs/{parent['id']}/compare/{fork['id']}").json()
    assert compared["diverged_at"] is not None


def test_a_fork_of_a_forEach_item_runs_only_that_item_with_its_edited_value(owner_client):
    parent = finished_run(owner_client, EACH, EACH_SCRIPT)
    answer = post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {"at": {"step": "each", "iteration": 2},
                                                                      "input": {"item": {"name": "zed"}}})
    assert answer.status_code == 201, answer.content
    fork = wait_for(owner_client, answer.json()["id"])
    assert fork["status"] == "completed", fork["reason"]
    own = [e for e in events_of(owner_client, fork["id"]) if e["seq"] > fork["start_seq"]]
    assert asked(own) == ["each[2]", "sum"]
    started = [e for e in own if e["type"] == "iteration_start"]
    assert [e["data"] for e in started] == [{"index": 2, "item": {"name": "zed"}}]
    items = owner_client.get(f"/api/v1/runs/{fork['id']}/iterations?step=each").json()
    assert sorted(r["index"] for r in items) == [0, 1, 2, 3, 4]
    assert next(r for r in items if r["index"] == 2)["item"] == {"name": "zed"}


def test_a_fork_of_a_fork_inherits_the_inherited_events_and_its_edits(owner_client):
    parent = finished_run(owner_client, TEN_ROUNDS, TEN_SCRIPT)
    first = post(owner_client, f"/api/v1/runs/{parent['id']}/fork",
                 {"at": {"step": "write", "iteration": 3}, "input": {"previous_output": "a better draft 2"}}).json()
    first = wait_for(owner_client, first["id"])
    assert first["status"] == "completed", first["reason"]
    answer = post(owner_client, f"/api/v1/runs/{first['id']}/fork", {"at": {"step": "write", "iteration": 7}})
    assert answer.status_code == 201, answer.content
    second = wait_for(owner_client, answer.json()["id"])
    assert second["parent"] == first["id"] and second["status"] == "completed", second["reason"]
    events = events_of(owner_client, second["id"])
    first_events = events_of(owner_client, first["id"])
    assert [bare(e) for e in events if e["seq"] <= second["start_seq"]] == \
        [bare(e) for e in first_events if e["seq"] <= second["start_seq"]]
    assert asked([e for e in events if e["seq"] > second["start_seq"]])[0] == "write.7"
    loop_end = [e for e in events if e["type"] == "loop_end"][-1]
    assert "a better draft 2" in loop_end["data"]["content"]  # the first fork's edit carries on


@pytest.fixture
def team(owner):
    User = get_user_model()
    workspace = create_team(owner, "Team")
    clients = {}
    for role in ("viewer", "runner"):
        user = User.objects.create_user(role)
        Membership.objects.create(workspace=workspace, user=user, role=role)
        clients[role] = Client()
        clients[role].force_login(user)
    return workspace, clients


def test_someone_elses_run_is_not_found_and_a_viewer_may_not_fork(owner_client, stranger_client, team):
    workspace, clients = team
    workflow = post(owner_client, "/api/v1/workflows", {"source": TEN_ROUNDS, "workspace_id": workspace.pk}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow, "script": TEN_SCRIPT}).json()["id"])
    body = {"at": {"step": "write", "iteration": 2}}
    assert post(stranger_client, f"/api/v1/runs/{run['id']}/fork", body).status_code == 404
    refused = post(clients["viewer"], f"/api/v1/runs/{run['id']}/fork", body)
    assert refused.status_code == 403 and "runner or above" in refused.json()["detail"]
    assert post(clients["runner"], f"/api/v1/runs/{run['id']}/fork", body).status_code == 201
    edited = post(clients["runner"], f"/api/v1/runs/{run['id']}/fork",
                  {**body, "patch": [{"op": "replace", "path": "/steps/0/instructions", "value": "Plan again."}]})
    assert edited.status_code == 403 and "editor or above" in edited.json()["detail"]
    assert Run.objects.filter(parent_id=run["id"]).count() == 1


@pytest.mark.parametrize("body, said", [
    ({"at": {"step": "nowhere"}}, "at.step: step 'nowhere' never ran"),
    ({"at": {"step": "write", "iteration": 40}}, "at.iteration: loop 'write' never ran iteration 40 (round 41): it ran iterations 0 to 9 (rounds 1 to 10)"),
    ({"at": {"step": "plan", "iteration": 0}}, "at.iteration: step 'plan' never ran a loop iteration"),
    ({"at": {"step": "write", "iteration": -1}}, "at.iteration: a whole number"),
    ({"at": {"iteration": 1}}, "at.step: a step id is required"),
    ({"at": "write"}, "`at` must be an object"),
    ({"at": {"step": "write", "iteration": 1}, "input": {"item": 3}}, "input: unknown field 'item'"),
    ({"at": {"step": "write", "iteration": 1}, "patch": [{"op": "replace", "path": "/steps/9/id", "value": "x"}]},
     "patch: operation 0: /steps/9/id: index 9 is past the end"),
    ({"at": {"step": "write", "iteration": 1}, "provider": "nope"}, "unknown provider `nope`"),
])
def test_a_bad_request_is_refused_naming_the_field(owner_client, body, said):
    parent = finished_run(owner_client, TEN_ROUNDS, TEN_SCRIPT)
    answer = post(owner_client, f"/api/v1/runs/{parent['id']}/fork", body)
    assert answer.status_code == 400, answer.content
    assert said in answer.json()["detail"]
    assert not Run.objects.filter(parent_id=parent["id"]).exists()


def test_an_invalid_edited_document_is_refused_with_its_diagnostics_and_saves_nothing(owner_client):
    parent = finished_run(owner_client, TEN_ROUNDS, TEN_SCRIPT)
    answer = post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {
        "at": {"step": "write", "iteration": 1},
        "patch": [{"op": "replace", "path": "/steps/1/loop/maxIterations", "value": "many"}]})
    assert answer.status_code == 422, answer.content
    assert answer.json()["detail"].startswith("the edited workflow has errors")
    assert any("maxIterations" in d["path"] for d in answer.json()["diagnostics"])
    assert Workflow.objects.get(pk=parent["workflow_id"]).current_version == 1


def test_a_run_still_going_cannot_be_forked(owner_client, owner):
    parent = finished_run(owner_client, TEN_ROUNDS, TEN_SCRIPT)
    Run.objects.filter(pk=parent["id"]).update(status="running")
    answer = post(owner_client, f"/api/v1/runs/{parent['id']}/fork", {"at": {"step": "write", "iteration": 1}})
    assert answer.status_code == 409 and "only a finished" in answer.json()["detail"]


def test_the_cli_runs_a_fork_in_process_and_prints_its_own_events(owner_client):
    parent = finished_run(owner_client, TEN_ROUNDS, TEN_SCRIPT)
    out = io.StringIO()
    with pytest.raises(SystemExit) as ended:
        call_command("runworkflow", "--from-run", parent["id"], "--at", "write.8", "--json", stdout=out)
    assert ended.value.code == 0
    printed = [json.loads(line) for line in out.getvalue().splitlines() if line.startswith("{")]
    fork = Run.objects.get(parent_id=parent["id"])
    assert fork.status == "completed" and fork.fork_point["iteration"] == 8
    assert printed and printed[0]["seq"] == fork.start_seq + 1 and printed[-1]["type"] == "workflow_end"
    assert [e["seq"] for e in printed] == list(range(fork.start_seq + 1, fork.last_seq + 1))
    assert asked(printed) == ["write.8", "write.8.untilAgent", "write.9", "write.9.untilAgent", "publish"]
    assert RunEvent.objects.filter(run=fork, seq__lte=fork.start_seq).count() == fork.start_seq


def test_a_forks_files_start_as_the_parents_workspace_was_at_the_point(owner):
    workflow = workflows.create(owner, source=TEN_ROUNDS, document=None)
    run = Run.objects.create(owner=owner, workspace=workflow.workspace, workflow=workflow, version=workflow.latest(),
                             status="completed", workspace_seed={"upload": "an-upload"})
    snapshot = [(3, {"snapshot": 1}), (6, {"snapshot": 2, "workspace": "write.1"}), (9, {"snapshot": 3})]
    persist_events(run.pk, [{"type": "workspace_snapshot", "seq": seq, "data": data} for seq, data in snapshot])
    assert workspace_at(run, 2) == {"upload": "an-upload"}  # before any snapshot: what the parent started from
    assert workspace_at(run, 8) == {"from_run": str(run.pk), "snapshot": 1}  # an iteration's own workspace is not the run's
    assert workspace_at(run, 9) == {"from_run": str(run.pk), "snapshot": 3}

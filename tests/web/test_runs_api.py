"""Runs over HTTP on the embedded default: created, executed in-process, recorded, controlled, private."""
import json

import pytest

from runtime.models import Run, RunEvent
from tests.support.api_calls import post, wait_for
from tests.support.documents import JUDGE_LOOP_SCRIPT, judge_loop

pytestmark = pytest.mark.django_db(transaction=True)

LOOP = judge_loop("review-loop", 4)


@pytest.fixture
def workflow_id(owner_client):
    return post(owner_client, "/api/v1/workflows", {"source": LOOP}).json()["id"]


def test_a_scripted_run_completes_and_records_events_iterations_and_loop_metadata(owner_client, workflow_id):
    created = post(owner_client, "/api/v1/runs",
                   {"coordinator": "off", "workflow_id": workflow_id, "provider": "simulated",
                    "script": {**JUDGE_LOOP_SCRIPT, "tokens": {"prompt": 10, "completion": 5}}})
    assert created.status_code == 201
    assert created.json()["status"] in ("queued", "running")
    run = wait_for(owner_client, created.json()["id"])
    assert run["status"] == "completed", run["reason"]
    assert run["loops"]["dev"] == {"rounds_completed": 2, "broke_early": True, "break_reason": "judge"}
    assert run["version"] == 1

    events = owner_client.get(f"/api/v1/runs/{run['id']}/events").json()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["type"] == "workflow_start" and events[-1]["type"] == "workflow_end"
    later = owner_client.get(f"/api/v1/runs/{run['id']}/events?after=3").json()
    assert later[0]["seq"] == 4 and len(later) == len(events) - 3

    iterations = owner_client.get(f"/api/v1/runs/{run['id']}/iterations").json()
    assert [(i["step_id"], i["iteration"], i["status"]) for i in iterations] == [("dev", 0, "completed"), ("dev", 1, "completed")]
    assert iterations[0]["verdict"] == {"done": False, "reason": "too short", "failed_open": False}
    assert iterations[1]["verdict"]["done"] is True
    assert iterations[0]["duration_ms"] is not None

    # Each iteration: the writer's turn and the judge's turn, 15 tokens each.
    assert [i["tokens"] for i in iterations] == [30, 30]
    metrics = owner_client.get(f"/api/v1/runs/{run['id']}/metrics").json()
    assert metrics["loops"]["dev"]["iterations"] == 2 and metrics["break_reasons"] == {"dev": "judge"}
    assert metrics["loops"]["dev"]["tokens"] == 60 and metrics["steps"]["dev"]["tokens"] == 60 and metrics["tokens"]["total"] == 60
    judge = metrics["steps"]["dev.0.untilAgent"]
    assert (judge["kind"], judge["loop"], judge["iteration"]) == ("judge", "dev", 0)
    assert judge["status"] == "completed" and judge["tokens"] == 15
    assert isinstance(judge["duration_ms"], float) and judge["duration_ms"] >= 0
    loop_end = next(e for e in events if e["type"] == "loop_end")
    assert loop_end["data"]["content"] == ("## Iteration 1\n### draft\ndraft one\n\n## Judge Feedback (Iteration 1)\nnot yet\n\n"
                                          "## Iteration 2\n### draft\ndraft two\n\n## Judge Feedback (Iteration 2)\ngood\n\n")


def test_a_run_points_at_the_exact_version_it_ran(owner_client, workflow_id):
    post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": JUDGE_LOOP_SCRIPT})
    changed = LOOP.replace("maxIterations: 4", "maxIterations: 2")
    saved = owner_client.put(f"/api/v1/workflows/{workflow_id}", data=json.dumps({"source": changed}), content_type="application/json")
    assert saved.status_code == 200, saved.content
    old = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "version": 1, "script": JUDGE_LOOP_SCRIPT}).json()
    new = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": JUDGE_LOOP_SCRIPT}).json()
    assert (old["version"], new["version"]) == (1, 2)
    wait_for(owner_client, old["id"])
    wait_for(owner_client, new["id"])


def test_an_invalid_version_cannot_run(owner_client, workflow_id):
    owner_client.put(f"/api/v1/workflows/{workflow_id}", data=json.dumps({"document": {"name": "x", "steps": []}}), content_type="application/json")
    response = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id})
    assert response.status_code == 422 and response.json()["diagnostics"][0]["code"] == "empty_steps"


def test_a_version_whose_cel_cannot_parse_is_saved_and_exports_but_cannot_run(owner_client):
    source = "name: w\nsteps:\n  - id: a\n    condition: \"steps.a.content.contains(\"\n"
    saved = post(owner_client, "/api/v1/workflows", {"source": source}).json()
    assert saved["valid"] is True and saved["runnable"] is False
    assert saved["warnings"][0]["blocks_run"] is True
    response = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": saved["id"], "provider": "simulated"})
    assert response.status_code == 422
    body = response.json()
    assert "cannot run" in body["detail"] and "/steps/0/condition" in body["detail"] and "syntax error at column" in body["detail"]
    assert body["diagnostics"][0]["code"] == "cel_syntax"
    assert not Run.objects.exists()


@pytest.mark.parametrize(
    "extra, words",
    [
        ({"provider": "nope"}, "unknown provider"),
        ({"budgets": {"max_tokens": -1}}, "positive"),
        ({"budgets": {"max_apples": 1}}, "unknown budget"),
        ({"script": {"replies": 5}}, "script"),
        ({"script": "replies: [\n"}, "script"),
        ({"budgets": {"max_tokens": 10**400}}, "too large"),
        ({"budgets": {"max_cost_usd": "nan"}}, "finite"),
        ({"budgets": {"max_duration_s": "inf"}}, "finite"),
    ],
)
def test_bad_run_requests_get_a_clear_4xx(owner_client, workflow_id, extra, words):
    response = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, **extra})
    assert 400 <= response.status_code < 500
    assert words in response.json()["detail"]


def test_a_run_list_filter_out_of_range_is_a_4xx(owner_client):
    response = owner_client.get("/api/v1/runs?workflow=" + "9" * 30)
    assert response.status_code == 422 and "workflow" in response.json()["detail"]


def test_script_text_is_accepted_like_an_object(owner_client, workflow_id):
    text = "replies:\n  draft: [a]\n  judge:\n    - {content: ok, result: {done: true}}\n"
    run = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": text}).json()
    assert wait_for(owner_client, run["id"])["status"] == "completed"


def test_budgets_stop_a_run_with_their_reason(owner_client, workflow_id):
    script = {**JUDGE_LOOP_SCRIPT, "tokens": {"prompt": 100, "completion": 100}}
    run = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": script, "budgets": {"max_tokens": 150}}).json()
    done = wait_for(owner_client, run["id"])
    assert done["status"] == "failed" and "token budget exceeded" in done["reason"]


def test_pause_resume_and_stop_a_running_run(owner_client, workflow_id):
    slow = {**JUDGE_LOOP_SCRIPT, "latency": 0.3, "replies": {"draft": ["x"], "judge": [{"content": "no", "result": {"done": False}}]}}
    run = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": slow}).json()
    wait_for(owner_client, run["id"], statuses=("running",))
    paused = post(owner_client, f"/api/v1/runs/{run['id']}/pause", {})
    assert paused.status_code == 200 and paused.json()["status"] == "paused"
    assert owner_client.get("/api/v1/runs/active/count").json() == {"count": 1}
    assert post(owner_client, f"/api/v1/runs/{run['id']}/resume", {}).json()["status"] == "running"
    post(owner_client, f"/api/v1/runs/{run['id']}/stop", {})
    done = wait_for(owner_client, run["id"])
    assert done["status"] == "cancelled"
    assert post(owner_client, f"/api/v1/runs/{run['id']}/pause", {}).status_code == 409


def test_stop_all_stops_every_active_run(owner_client, workflow_id):
    slow = {"latency": 0.3, "replies": {"judge": [{"content": "no", "result": {"done": False}}]}}
    ids = [post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": slow}).json()["id"] for _ in range(2)]
    assert post(owner_client, "/api/v1/runs/all/stop", {}).json()["count"] == 2
    finals = [wait_for(owner_client, i) for i in ids]
    assert {r["status"] for r in finals} == {"cancelled"}, [(r["status"], r["reason"]) for r in finals]


def test_a_stranger_cannot_see_or_control_someone_elses_run(owner_client, stranger_client, workflow_id):
    run = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": JUDGE_LOOP_SCRIPT}).json()
    for path in ("", "/events", "/iterations", "/metrics", "/history"):
        assert stranger_client.get(f"/api/v1/runs/{run['id']}{path}").status_code == 404
    assert post(stranger_client, f"/api/v1/runs/{run['id']}/stop", {}).status_code == 404
    assert stranger_client.get("/api/v1/runs").json() == []
    assert post(stranger_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id}).status_code == 404
    assert post(stranger_client, "/api/v1/runs/all/stop", {}).json() == {"count": 0}
    wait_for(owner_client, run["id"])


def test_runs_list_filters_by_status_and_workflow(owner_client, workflow_id):
    run = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": JUDGE_LOOP_SCRIPT}).json()
    wait_for(owner_client, run["id"])
    assert [r["id"] for r in owner_client.get(f"/api/v1/runs?status=completed&workflow={workflow_id}").json()] == [run["id"]]
    assert owner_client.get("/api/v1/runs?status=failed").json() == []
    assert owner_client.get("/api/v1/runs?status=bogus").status_code == 400


def test_an_unknown_or_malformed_run_id_is_404(owner_client):
    assert owner_client.get("/api/v1/runs/not-a-uuid").status_code == 404
    assert owner_client.get("/api/v1/runs/00000000-0000-0000-0000-000000000000").status_code == 404


def test_events_are_persisted_once_each(owner_client, workflow_id):
    run = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": JUDGE_LOOP_SCRIPT}).json()
    wait_for(owner_client, run["id"])
    stored = Run.objects.get(pk=run["id"])
    assert RunEvent.objects.filter(run=stored).count() == stored.last_seq > 0


def test_run_policies_are_kept_on_the_run_and_stop_it_with_their_rule(owner_client, workflow_id):
    script = {"replies": {"draft": ["one", "two LGTM"], "judge": [{"content": "no", "result": {"done": False}}]}}
    policies = {"stop_rules": [{"kind": "approval"}], "combine": "any"}
    run = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "script": script, "policies": policies}).json()
    assert run["policies"] == policies
    done = wait_for(owner_client, run["id"])
    assert done["status"] == "completed"
    assert done["loops"]["dev"]["break_reason"] == "policy" and done["loops"]["dev"]["rounds_completed"] == 2


def test_bad_policies_get_a_clear_4xx(owner_client, workflow_id):
    response = post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id, "policies": {"stop_rules": [{"kind": "vibes"}]}})
    assert response.status_code == 400 and "stop_rules[0].kind" in response.json()["detail"]


def test_events_page_and_filter_on_the_server_and_iterations_by_loop_item(owner_client, workflow_id):
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": workflow_id,
                                                                     "script": JUDGE_LOOP_SCRIPT}).json()["id"])
    base = f"/api/v1/runs/{run['id']}"
    every = owner_client.get(f"{base}/events").json()
    page = owner_client.get(f"{base}/events?after=2&limit=3").json()
    assert [e["seq"] for e in page] == [3, 4, 5]
    last = owner_client.get(f"{base}/events?before={len(every) + 1}&limit=2").json()
    assert [e["seq"] for e in last] == [len(every) - 1, len(every)]
    verdicts = owner_client.get(f"{base}/events?type=judge_verdict,loop_end").json()
    assert {e["type"] for e in verdicts} == {"judge_verdict", "loop_end"} and len(verdicts) == 3
    inside = owner_client.get(f"{base}/events?step=dev").json()
    assert inside and all(e["stepId"] == "dev" or e["stepId"].startswith(("dev.", "dev[")) for e in inside)
    assert owner_client.get(f"{base}/events?limit=0").status_code == 422
    one = owner_client.get(f"{base}/iterations?step=dev&iteration=1").json()
    assert [(i["step_id"], i["iteration"]) for i in one] == [("dev", 1)]


def test_metrics_list_a_loop_before_its_items_in_numeric_order(owner_client):
    source = "version: 1\nname: many\nsteps:\n  - id: each\n    instructions: go\n    loop: {forEach: [0,1,2,3,4,5,6,7,8,9,10,11], maxConcurrency: 12}\n"
    flow = post(owner_client, "/api/v1/workflows", {"source": source}).json()["id"]
    run = wait_for(owner_client, post(owner_client, "/api/v1/runs", {"coordinator": "off", "workflow_id": flow}).json()["id"])
    ids = list(owner_client.get(f"/api/v1/runs/{run['id']}/metrics").json()["steps"])
    assert ids == ["each"] + [f"each[{i}]" for i in range(12)]

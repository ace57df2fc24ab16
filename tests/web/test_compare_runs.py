"""Two runs of one workflow compared over HTTP: rows per step and iteration, the first divergence, privacy."""
import pytest

from runtime.engine.pricing import PriceBook
from runtime.runs.compare import compare_units, differences, units_of
from tests.support.api_calls import post, wait_for
from tests.support.documents import judge_loop

pytestmark = pytest.mark.django_db(transaction=True)

LOOP = judge_loop("compare-loop", 4)


def script(*judge):
    return {"replies": {"draft": ["draft one", "draft two", "draft three"], "judge": list(judge)},
            "tokens": {"prompt": 10, "completion": 5}}


NOT_YET = {"content": "not yet", "result": {"done": False, "reason": "too short"}}
DONE = {"content": "good", "result": {"done": True, "reason": "complete"}}


def run(client, workflow_id, body):
    created = post(client, "/api/v1/runs", {"workflow_id": workflow_id, "provider": "simulated", **body})
    assert created.status_code == 201, created.content
    finished = wait_for(client, created.json()["id"])
    assert finished["status"] == "completed", finished["reason"]
    return finished["id"]


@pytest.fixture
def workflow_id(owner_client):
    return post(owner_client, "/api/v1/workflows", {"source": LOOP}).json()["id"]


def test_two_runs_that_part_at_the_second_round_say_so(owner_client, workflow_id):
    short = run(owner_client, workflow_id, {"script": script(NOT_YET, DONE)})
    long = run(owner_client, workflow_id, {"script": script(NOT_YET, NOT_YET, DONE)})
    body = owner_client.get(f"/api/v1/runs/{short}/compare/{long}").json()
    assert body["a"]["id"] == short and body["b"]["id"] == long and body["same_version"] is True
    rows = {r["key"]: r for r in body["rows"]}
    # Round 0 is the same in both; round 1's verdict differs; round 2 only the longer run has.
    assert rows["dev.0"]["differs"] == [] and rows["dev.0"]["a"]["reason"] == "too short"
    assert rows["dev.1"]["differs"] == ["done"] and rows["dev.1"]["a"]["done"] is True
    assert rows["dev.1"]["b"]["done"] is False and rows["dev.1"]["b"]["reason"] == "too short"
    assert rows["dev.2"]["a"] is None and rows["dev.2"]["differs"] == ["missing"]
    assert body["diverged_at"] == {"key": "dev.1", "fields": ["done"]}
    # Tokens per iteration: the writer's turn and the judge's, 15 each.
    assert rows["dev.0"]["a"]["tokens"] == 30 and rows["dev.0"]["b"]["tokens"] == 30
    assert rows["dev"]["a"]["tokens"] == 60 and rows["dev"]["b"]["tokens"] == 90
    # Reading order: the loop, then its rounds in numeric order, each before its inner steps.
    keys = [r["key"] for r in body["rows"]]
    assert keys.index("dev") < keys.index("dev.0") < keys.index("dev.0.draft") < keys.index("dev.1")


def test_identical_runs_never_diverge(owner_client, workflow_id):
    one = run(owner_client, workflow_id, {"script": script(NOT_YET, DONE)})
    two = run(owner_client, workflow_id, {"script": script(NOT_YET, DONE)})
    body = owner_client.get(f"/api/v1/runs/{one}/compare/{two}").json()
    assert body["diverged_at"] is None
    assert all(r["differs"] == [] for r in body["rows"])


def test_runs_of_different_workflows_are_refused_with_their_names(owner_client, workflow_id):
    other = post(owner_client, "/api/v1/workflows", {"source": judge_loop("another-loop", 2)}).json()["id"]
    a = run(owner_client, workflow_id, {"script": script(DONE)})
    b = run(owner_client, other, {"script": script(DONE)})
    response = owner_client.get(f"/api/v1/runs/{a}/compare/{b}")
    assert response.status_code == 400
    assert "another-loop" in response.json()["detail"] and "same workflow" in response.json()["detail"]


def test_a_stranger_cannot_compare_someone_elses_runs(owner_client, stranger_client, workflow_id):
    a = run(owner_client, workflow_id, {"script": script(DONE)})
    b = run(owner_client, workflow_id, {"script": script(DONE)})
    assert stranger_client.get(f"/api/v1/runs/{a}/compare/{b}").status_code == 404
    assert owner_client.get(f"/api/v1/runs/{a}/compare/00000000-0000-0000-0000-000000000000").status_code == 404


def test_outputs_and_costs_fold_without_a_database():
    events = [
        {"type": "agent_turn", "stepId": "each[1].write", "tokens": {"prompt": 1000, "completion": 1000, "total": 2000},
         "data": {"phase": "response", "model": "priced", "provider": "openai"}},
        {"type": "step_end", "stepId": "each[1].write", "durationMs": 12.5, "data": {"status": "completed", "content": "hi"}},
        {"type": "step_skipped", "stepId": "later", "data": {"status": "skipped", "reason": "condition false"}},
    ]
    iterations = [{"step_id": "each", "iteration": None, "index": 1, "item": "b", "status": "completed", "content": "hi",
                   "result": None, "verdict": None, "duration_ms": 13.0}]
    units = units_of(events, iterations, PriceBook(overrides={"priced": (1.0, 2.0)}), "openai")
    assert units["each[1].write"]["output"] == "hi" and units["each[1].write"]["duration_ms"] == 12.5
    # The turn's cost counts toward the inner step, its item and the loop.
    assert units["each[1].write"]["cost_usd"] == units["each[1]"]["cost_usd"] == units["each"]["cost_usd"] == 0.003
    assert units["each[1]"]["item"] == "b" and units["later"] == {**units["later"], "status": "skipped", "reason": "condition false"}
    other = {**units, "each[1].write": {**units["each[1].write"], "output": "hello"}}
    compared = compare_units(units, other, list(units), list(other))
    assert compared["diverged_at"] == {"key": "each[1].write", "fields": ["output"]}
    assert differences(units["later"], None) == ["missing"]


def test_a_forks_rows_copied_from_its_parent_are_marked_inherited():
    events = [
        {"type": "iteration_end", "stepId": "dev", "inherited": True, "data": {"iteration": 0, "status": "completed"}},
        {"type": "step_end", "stepId": "dev.0.draft", "inherited": True, "data": {"status": "completed", "content": "one"}},
        {"type": "step_end", "stepId": "dev.1.draft", "data": {"status": "completed", "content": "two"}},
        {"type": "iteration_end", "stepId": "dev", "data": {"iteration": 1, "status": "completed"}},
        {"type": "step_end", "stepId": "dev", "data": {"status": "completed"}},
    ]
    units = units_of(events, [], PriceBook(), "simulated")
    assert [k for k, u in units.items() if u["inherited"]] == ["dev.0", "dev.0.draft"]
    # Inherited is said, never compared: the parent's same rows agree with the fork's.
    parent = {k: {**u, "inherited": False} for k, u in units.items()}
    assert compare_units(parent, units, list(parent), list(units))["diverged_at"] is None


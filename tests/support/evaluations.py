"""Evaluations over the API: a judged loop's cases whose judge passes at a chosen round, datasets and
experiments made through the routes, and the wait for an experiment to end; the same from a signed-in browser page
(tests/e2e), and a workflow with a dataset and finished experiments to show the page with; a fake OpenAI judge
that a new prompt changes."""
from __future__ import annotations

import time

from tests.support.api_calls import post
from tests.support.browser import api
from tests.support.documents import judge_loop

NOT_YET = {"content": "not yet", "result": {"done": False, "reason": "too short"}}
DONE = {"content": "good", "result": {"done": True, "reason": "complete"}}


def loop_source(name: str = "eval-loop", rounds: int = 3) -> str:
    return judge_loop(name, rounds)


def passing_at(round_: int, words: str = "draft") -> dict:
    """The simulated script of a judged loop whose judge says done at round ``round_`` (1-based)."""
    return {"replies": {"draft": [f"{words} {i}" for i in range(1, round_ + 1)],
                        "judge": [NOT_YET] * (round_ - 1) + [DONE]},
            "tokens": {"prompt": 10, "completion": 5}}


def case(case_id: str, round_: int, **extra) -> dict:
    return {"id": case_id, "script": passing_at(round_), **extra}


def make_workflow(client, source: str | None = None) -> int:
    created = post(client, "/api/v1/workflows", {"source": source or loop_source()})
    assert created.status_code == 201, created.content
    return created.json()["id"]


def make_dataset(client, workflow_id: int, cases: list[dict], scorers: list[dict] | None = None, name: str = "golden") -> dict:
    created = post(client, "/api/v1/datasets", {"workflow_id": workflow_id, "name": name, "cases": cases, "scorers": scorers or []})
    assert created.status_code == 201, created.content
    return created.json()


def run_experiment(client, workflow_id: int, dataset_id: int, **body) -> dict:
    """Start an experiment and wait for its end; its results."""
    started = post(client, "/api/v1/experiments", {"workflow_id": workflow_id, "dataset_id": dataset_id, **body})
    assert started.status_code == 201, started.content
    return wait_for_experiment(client, started.json()["id"])


def wait_for_experiment(client, experiment_id: int, timeout: float = 240) -> dict:
    """The experiment's results once it is no longer running. It polls: a busy machine only makes it wait longer."""
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/api/v1/experiments/{experiment_id}").json()
        if body["experiment"]["status"] != "running":
            return body
        if time.monotonic() > deadline:
            raise AssertionError(f"experiment {experiment_id} still running after {timeout} s: {body['progress']}")
        time.sleep(0.1)


# ---------------------------------------------------------------- from a signed-in browser page (tests/e2e)

def script(rounds: int) -> dict:
    """The simulated script of a judged loop whose judge says done at round ``rounds`` (no tokens given)."""
    return {"replies": {"draft": [f"draft {i}" for i in range(1, rounds + 1)], "judge": [NOT_YET] * (rounds - 1) + [DONE]}}


def finished_run(page, workflow_id: int, rounds: int) -> str:
    """A simulated run of the workflow whose judge passes at round ``rounds``, once it has ended: its id."""
    run = api(page, "POST", "/runs", {"workflow_id": workflow_id, "provider": "simulated", "coordinator": "off", "script": script(rounds)})
    deadline = time.time() + 60
    while api(page, "GET", f"/runs/{run['id']}")["status"] not in ("completed", "partial", "failed", "cancelled"):
        assert time.time() < deadline, "the run did not finish"
        time.sleep(0.1)
    return run["id"]


def experiment_done(page, experiment_id: int, timeout: float = 90) -> None:
    """Wait until every trial of the experiment is done (polled through the page's session)."""
    deadline = time.time() + timeout
    while True:
        progress = api(page, "GET", f"/experiments/{experiment_id}/progress")
        if progress["done"] >= progress["total"]:
            return
        assert time.time() < deadline, f"experiment {experiment_id} did not finish in {timeout} s: {progress}"
        time.sleep(0.2)


def evaluations_with_results(page, name: str, workspace_id: int | None = None, experiments: int = 2) -> dict:
    """A judged workflow with a dataset of two cases (passing at rounds 1 and 2) and ``experiments`` finished
    experiments over it (two: something to compare): the Evaluations page with everything it can show.
    Returns ``{"workflow", "dataset", "experiments"}`` (ids, the experiments oldest first)."""
    where = {"workspace_id": workspace_id} if workspace_id is not None else {}
    workflow = api(page, "POST", "/workflows", {"source": loop_source(name), **where})["id"]
    dataset = api(page, "POST", "/datasets", {"workflow_id": workflow, "name": f"{name} cases",
                                               "cases": [{"id": "quick", "script": script(1)}, {"id": "slower", "script": script(2)}],
                                               "scorers": [{"name": "judged", "kind": "cel", "expr": "loops.dev.break_reason == 'judge'"}]})
    made = [api(page, "POST", "/experiments", {"workflow_id": workflow, "dataset_id": dataset["id"]})["id"] for _ in range(experiments)]
    for experiment_id in made:
        experiment_done(page, experiment_id)
    return {"workflow": workflow, "dataset": dataset["id"], "experiments": made}


# ---------------------------------------------------------------- a judge at the fake OpenAI server

NEW_JUDGE_PROMPT = "Say done once a draft has a point."


def judged_by_prompt(request, rescore_latency: float = 0.0) -> dict:
    """FakeOpenAI.reply_for: the writer writes; the judge says done at the third round, or at once when its system
    text holds NEW_JUDGE_PROMPT (answered after ``rescore_latency`` seconds: a re-scoring's calls, seen pending)."""
    body = request.json or {}
    if not any(t["function"]["name"] == "submit_result" for t in body.get("tools") or []):
        return {"content": "a draft with a point"}
    messages = body.get("messages") or []
    rescored = NEW_JUDGE_PROMPT in messages[0]["content"]
    done = rescored or "Iteration 3 of at most 3" in messages[-1]["content"]
    reply = {"tool_calls": [{"name": "submit_result", "arguments": {"done": done, "reason": "has a point" if done else "not yet"}}]}
    return {**reply, "latency": rescore_latency} if rescored and rescore_latency else reply

"""An experiment runs a workflow over a dataset as ordinary runs, scores each, and its numbers are the runs'."""
import statistics

import pytest

from runtime.models import Run
from tests.support.evaluations import case, make_dataset, make_workflow, run_experiment

pytestmark = pytest.mark.django_db(transaction=True)

SCORERS = [
    {"name": "quick", "kind": "cel", "expr": "loops.dev.rounds <= 2"},
    {"name": "drafted", "kind": "contains", "step": "dev", "value": "draft"},
]


def test_every_trial_is_an_ordinary_run_scored_with_the_cases_script(owner_client):
    workflow = make_workflow(owner_client)
    dataset = make_dataset(owner_client, workflow, [case("one", 1), case("three", 3)], SCORERS)
    body = run_experiment(owner_client, workflow, dataset["id"], trials=2, concurrency=2)
    assert body["experiment"]["status"] == "completed", body["experiment"]
    assert body["progress"] == {"total": 4, "pending": 0, "running": 0, "scored": 4, "failed": 0, "done": 4}
    trials = {(t["case_id"], t["trial"]): t for t in body["trials"]}
    assert trials[("one", 1)]["rounds"] == 1 and trials[("three", 2)]["rounds"] == 3
    assert trials[("one", 1)]["scores"]["quick"]["passed"] is True
    assert trials[("three", 1)]["scores"]["quick"] == {"score": 0.0, "passed": False, "reason": "loops.dev.rounds <= 2 is false"}
    runs = Run.objects.filter(experiment_id=body["experiment"]["id"])
    assert runs.count() == 4 and {r.status for r in runs} == {"completed"}
    # The numbers are the runs' own.
    for t in body["trials"]:
        run = runs.get(pk=t["run_id"])
        assert t["tokens"] == run.tokens_prompt + run.tokens_completion
    cases = {c["case_id"]: c for c in body["cases"]}
    assert cases["one"]["score"]["mean"] == 1.0 and cases["three"]["score"]["mean"] == 0.5
    assert body["aggregate"]["score"]["mean"] == statistics.fmean([1.0, 1.0, 0.5, 0.5])

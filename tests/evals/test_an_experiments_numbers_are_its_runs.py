"""An experiment of 20 cases x 3 trials: every aggregate computed again here from the runs themselves."""
import csv
import io
import statistics

import pytest

from runtime.models import Run
from tests.support.evaluations import case, make_dataset, make_workflow, run_experiment

pytestmark = pytest.mark.django_db(transaction=True)

SCORERS = [{"name": "quick", "kind": "cel", "expr": "loops.dev.rounds <= 2"},
           {"name": "cheap", "kind": "cel", "expr": "run.tokens <= 60"},
           {"name": "ratio", "kind": "cel", "expr": "1.0 / double(loops.dev.rounds)", "threshold": 0.4}]


def expected_score(run):
    rounds = run.loops["dev"]["rounds_completed"]
    tokens = run.tokens_prompt + run.tokens_completion
    return statistics.fmean([float(rounds <= 2), float(tokens <= 60), 1.0 / rounds])


def test_twenty_cases_by_three_trials_aggregate_to_what_the_runs_say(owner_client):
    workflow = make_workflow(owner_client)
    cases = [case(f"c{i:02d}", i % 3 + 1) for i in range(20)]
    dataset = make_dataset(owner_client, workflow, cases, SCORERS)
    body = run_experiment(owner_client, workflow, dataset["id"], trials=3, concurrency=8)
    assert body["experiment"]["status"] == "completed"
    assert body["progress"]["scored"] == 60 and len(body["trials"]) == 60
    runs = {str(r.id): r for r in Run.objects.filter(experiment_id=body["experiment"]["id"])}
    assert len(runs) == 60 and all(r.status == "completed" for r in runs.values())
    by_case: dict[str, list[float]] = {}
    for t in body["trials"]:
        run = runs[t["run_id"]]
        want = expected_score(run)
        assert t["score"] == pytest.approx(want)
        assert t["rounds"] == run.loops["dev"]["rounds_completed"] == int(t["case_id"][1:]) % 3 + 1
        assert t["tokens"] == run.tokens_prompt + run.tokens_completion and t["cost_usd"] == run.cost_usd
        assert t["stop_reason"] == run.loops["dev"]["break_reason"]
        by_case.setdefault(t["case_id"], []).append(want)
    all_scores = [s for v in by_case.values() for s in v]
    aggregate = body["aggregate"]
    assert aggregate["score"]["mean"] == pytest.approx(statistics.fmean(all_scores), abs=1e-6)
    assert aggregate["score"]["stdev"] == pytest.approx(statistics.pstdev(all_scores), abs=1e-6)
    assert aggregate["score"]["n"] == 60
    assert aggregate["tokens"] == sum(r.tokens_prompt + r.tokens_completion for r in runs.values())
    passing = sum(1 for t in body["trials"] if all(s["passed"] for s in t["scores"].values()))
    assert aggregate["pass_rate"] == pytest.approx(passing / 60, abs=1e-6)
    assert aggregate["rounds"]["mean"] == pytest.approx(statistics.fmean(r.loops["dev"]["rounds_completed"] for r in runs.values()), abs=1e-6)
    for c in body["cases"]:
        assert c["trials"] == 3
        assert c["score"]["mean"] == pytest.approx(statistics.fmean(by_case[c["case_id"]]), abs=1e-6)
        assert c["score"]["stdev"] == pytest.approx(statistics.pstdev(by_case[c["case_id"]]), abs=1e-6)
    assert aggregate["scorers"]["quick"]["mean"] == pytest.approx(statistics.fmean(
        float(r.loops["dev"]["rounds_completed"] <= 2) for r in runs.values()), abs=1e-6)

    exported = list(csv.DictReader(io.StringIO(owner_client.get(f"/api/v1/experiments/{body['experiment']['id']}/export").content.decode())))
    assert len(exported) == 60 and set(exported[0]) >= {"case_id", "trial", "run_id", "score", "quick", "cheap", "ratio", "rounds"}
    as_json = owner_client.get(f"/api/v1/experiments/{body['experiment']['id']}/export?format=json").json()
    assert as_json["aggregate"] == aggregate

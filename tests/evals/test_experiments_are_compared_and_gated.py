"""Two versions of a loop on one dataset: the regressions named, the verdict line, and the gate's answers and exit codes."""
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from runtime.management.commands.experiment import Command
from tests.support.evaluations import case, loop_source, make_dataset, make_workflow, run_experiment

pytestmark = pytest.mark.django_db(transaction=True)

# Passed when the judge said done, not when the loop ran out of rounds.
SCORERS = [{"name": "judged", "kind": "cel", "expr": "loops.dev.break_reason == 'judge'"}]


@pytest.fixture
def two_versions(owner_client):
    """Version 1 allows 3 rounds; version 2 only 1, so the cases that need 2 or 3 rounds get worse."""
    workflow = make_workflow(owner_client, loop_source("gate-loop", 3))
    dataset = make_dataset(owner_client, workflow, [case("easy", 1), case("medium", 2), case("hard", 3)], SCORERS, name="gate-set")
    baseline = run_experiment(owner_client, workflow, dataset["id"], trials=2)
    saved = owner_client.put(f"/api/v1/workflows/{workflow}", data=json.dumps({"source": loop_source("gate-loop", 1)}),
                             content_type="application/json")
    assert saved.status_code == 200, saved.content
    candidate = run_experiment(owner_client, workflow, dataset["id"], trials=2)
    return {"workflow": workflow, "dataset": dataset["id"], "baseline": baseline["experiment"]["id"],
            "candidate": candidate["experiment"]["id"]}


def test_the_comparison_names_the_cases_that_got_worse_and_says_so_in_a_line(owner_client, two_versions):
    body = owner_client.get(f"/api/v1/experiments/{two_versions['candidate']}/compare/{two_versions['baseline']}").json()
    assert body["worse"] == ["medium", "hard"] and body["better"] == []
    rows = {r["case_id"]: r for r in body["rows"]}
    assert rows["easy"]["change"] == "same" and rows["hard"]["delta"] == -1.0
    assert rows["hard"]["runs_compare"] == f"/api/v1/runs/{rows['hard']['candidate_run']}/compare/{rows['hard']['baseline_run']}"
    assert owner_client.get(rows["hard"]["runs_compare"]).status_code == 200
    assert body["verdict"] == "version 2 scores 0.33 vs 1.00 (version 1), 2 cases worse, 0 better"


def test_the_gate_answers_412_with_its_reasons_and_200_when_it_passes(owner_client, two_versions):
    base = f"/api/v1/experiments/{two_versions['candidate']}/gate"
    failed = owner_client.get(f"{base}?compare_to={two_versions['baseline']}&min_score=0.5")
    assert failed.status_code == 412
    assert failed.json()["reasons"] == ["score 0.33 is below the minimum 0.5", "2 case(s) regressed (at most 0 allowed): medium, hard"]
    assert owner_client.get(f"{base}?compare_to={two_versions['baseline']}&max_regressions=2").status_code == 200
    assert owner_client.get(f"/api/v1/experiments/{two_versions['baseline']}/gate?min_score=0.9").json()["passed"] is True


def exit_code(*argv):
    try:
        Command().run_from_argv(["manage.py", "experiment", *argv])
    except SystemExit as exc:
        return exc.code
    return 0


def test_the_command_exits_non_zero_below_the_score_or_on_regressions(two_versions, capsys):
    workflow, dataset = str(two_versions["workflow"]), "gate-set"
    assert exit_code("run", workflow, dataset, "--version", "1", "--min-score", "0.9") == 0
    assert "PASSED" in capsys.readouterr().out
    assert exit_code("run", workflow, dataset, "--min-score", "0.5") == 1
    out = capsys.readouterr().out
    assert "FAILED: score 0.33 is below the minimum 0.5" in out and "GATE FAILED" in out
    assert exit_code("run", "gate-loop", dataset, "--compare-to", str(two_versions["baseline"])) == 1
    assert "version 2 scores 0.33 vs 1.00 (version 1), 2 cases worse" in capsys.readouterr().out
    assert exit_code("run", workflow, dataset, "--version", "1", "--compare-to", str(two_versions["baseline"]), "--json") == 0
    assert json.loads(capsys.readouterr().out)["gate"]["passed"] is True
    assert exit_code("run", workflow, "no-such-set") == 2
    with pytest.raises(CommandError, match="has no dataset"):
        call_command("experiment", "run", workflow, "no-such-set")

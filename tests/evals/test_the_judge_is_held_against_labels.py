"""The judge on trial: rounds labelled by a person, and the judge's verdicts counted too early, too late or right."""
import pytest

from runtime.evals.judging import Round, agreement
from tests.support.api_calls import post, wait_for
from tests.support.evaluations import NOT_YET, case, make_dataset, make_workflow, passing_at, run_experiment


def rounds(*rows):
    return [Round(run, version, "dev", it, done, 30, later, 0.0) for run, version, it, done, later in rows]


def test_agreement_by_hand():
    made = rounds(("a", 1, 0, False, 60), ("a", 1, 1, False, 30), ("a", 1, 2, True, 0),   # run a: judged done at round 3
                  ("b", 1, 0, True, 0),                                                   # run b: done at once
                  ("c", 2, 0, False, 30), ("c", 2, 1, True, 0))
    labels = {("a", "dev", 0): False, ("a", "dev", 1): True, ("a", "dev", 2): True,       # a: round 2 was already good: too late
              ("b", "dev", 0): False,                                                     # b: not good, said done: too early
              ("c", "dev", 0): False, ("c", "dev", 1): True}                              # c: right twice
    out = agreement(made, labels)
    assert out["all"] == {"labelled": 6, "right": 4, "too_early": 1, "too_late": 1, "wasted_tokens": 30,
                          "wasted_cost_usd": 0.0, "agreement": round(4 / 6, 6)}
    assert [(v["version"], v["right"], v["too_early"], v["too_late"]) for v in out["versions"]] == [(1, 2, 1, 1), (2, 2, 0, 0)]


def test_unlabelled_rounds_and_rounds_without_a_verdict_are_left_out():
    out = agreement(rounds(("a", 1, 0, None, 0), ("a", 1, 1, True, 0)), {("a", "dev", 0): True})
    assert out["all"]["labelled"] == 0 and out["all"]["agreement"] is None


@pytest.mark.django_db(transaction=True)
def test_rounds_are_labelled_over_http_and_the_agreement_follows(owner_client, stranger_client):
    workflow = make_workflow(owner_client)
    created = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "coordinator": "off",
                                                  "script": passing_at(3)}).json()
    wait_for(owner_client, created["id"])
    listed = owner_client.get(f"/api/v1/runs/{created['id']}/rounds").json()
    assert [(r["iteration"], r["done"], r["good"]) for r in listed] == [(0, False, None), (1, False, None), (2, True, None)]
    assert "draft 1" in listed[0]["content"]
    url = f"/api/v1/runs/{created['id']}/rounds/dev/{{}}/label"
    for iteration, good in ((0, False), (1, True), (2, True)):
        answer = owner_client.put(url.format(iteration), data={"good": good}, content_type="application/json")
        assert answer.status_code == 200, answer.content
    body = owner_client.get(f"/api/v1/workflows/{workflow}/judge-agreement").json()
    assert body["all"]["labelled"] == 3 and body["all"]["too_late"] == 1 and body["all"]["right"] == 2
    # The round after the one labelled good was wasted: its tokens (a draft and a verdict, 15 each).
    assert body["all"]["wasted_tokens"] == 30
    # A label taken back; a round that does not exist is named; strangers see nothing.
    owner_client.put(url.format(1), data={"good": None}, content_type="application/json")
    assert owner_client.get(f"/api/v1/workflows/{workflow}/judge-agreement").json()["all"]["labelled"] == 2
    missing = owner_client.put(url.format(7), data={"good": True}, content_type="application/json")
    assert missing.status_code == 400 and "no judged round 7 of 'dev'" in missing.json()["detail"]
    assert stranger_client.get(f"/api/v1/runs/{created['id']}/rounds").status_code == 404
    assert stranger_client.put(url.format(0), data={"good": True}, content_type="application/json").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_an_experiments_agreement_counts_only_its_runs(owner_client):
    workflow = make_workflow(owner_client)
    dataset = make_dataset(owner_client, workflow, [case("a", 2)])
    body = run_experiment(owner_client, workflow, dataset["id"])
    run_id = body["trials"][0]["run_id"]
    owner_client.put(f"/api/v1/runs/{run_id}/rounds/dev/0/label", data={"good": True}, content_type="application/json")
    other = post(owner_client, "/api/v1/runs", {"workflow_id": workflow, "provider": "simulated", "script": passing_at(1)}).json()
    wait_for(owner_client, other["id"])
    owner_client.put(f"/api/v1/runs/{other['id']}/rounds/dev/0/label", data={"good": False}, content_type="application/json")
    mine = owner_client.get(f"/api/v1/workflows/{workflow}/judge-agreement?experiment={body['experiment']['id']}").json()
    assert mine["all"]["labelled"] == 1 and mine["all"]["too_late"] == 1
    assert owner_client.get(f"/api/v1/workflows/{workflow}/judge-agreement").json()["all"]["too_early"] == 1
    assert NOT_YET["result"]["done"] is False

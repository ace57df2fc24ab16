"""The Evaluations page in Chromium: a run added as a case, an experiment watched to its end, two versions compared."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import api
from tests.support.documents import judge_loop
from tests.support.evaluations import experiment_done, finished_run, script


def test_an_experiment_is_run_watched_and_compared_with_the_version_before(page):
    page.goto("/")
    workflow = api(page, "POST", "/workflows", {"source": judge_loop("evals-e2e", 3)})["id"]
    dataset = api(page, "POST", "/datasets", {"workflow_id": workflow, "name": "golden", "cases": [
        {"id": "easy", "script": script(1)}, {"id": "medium", "script": script(2)}],
        "scorers": [{"name": "judged", "kind": "cel", "expr": "loops.dev.break_reason == 'judge'"}]})
    # A finished run added as a case, keeping its outputs as the expected ones.
    run = finished_run(page, workflow, 3)
    added = api(page, "POST", f"/datasets/{dataset['id']}/from-run", {"run_id": run, "keep_outputs": True, "case_id": "hard"})
    assert added["cases_count"] == 3

    page.goto(f"/workflows/{workflow}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']", timeout=90_000)
    page.get_by_role("link", name="Evaluations").click()
    page.get_by_test_id("evaluations-page").wait_for()
    expect(page.get_by_test_id("datasets")).to_contain_text("golden")
    page.get_by_test_id("start-experiment").click()
    results = page.get_by_test_id("experiment-results")
    expect(results.get_by_role("heading")).to_contain_text("completed", timeout=90_000)
    expect(page.get_by_test_id("experiment-progress")).to_have_attribute("value", "3")
    expect(page.get_by_test_id("experiment-aggregate")).to_contain_text("Score 1.00")
    first = api(page, "GET", f"/workflows/{workflow}/experiments")[0]["id"]

    # Version 2 allows one round only: the cases that needed more get worse.
    api(page, "PUT", f"/workflows/{workflow}", {"source": judge_loop("evals-e2e", 1)})
    page.reload()
    page.get_by_test_id("start-experiment").click()
    expect(results.get_by_role("heading")).to_contain_text(f"#{first + 1}: completed", timeout=90_000)
    page.get_by_test_id("compare-baseline").select_option(str(first))
    page.get_by_test_id("compare-experiments").click()
    expect(page.get_by_test_id("comparison-verdict")).to_have_text("version 2 scores 0.33 vs 1.00 (version 1), 2 cases worse, 0 better")
    assert page.locator("tr[data-change='worse']").count() == 2


def test_rounds_are_labelled_by_keyboard_and_the_judges_agreement_follows(page):
    page.goto("/")
    workflow = api(page, "POST", "/workflows", {"source": judge_loop("labels-e2e", 3)})["id"]
    dataset = api(page, "POST", "/datasets", {"workflow_id": workflow, "name": "golden", "cases": [{"id": "slow", "script": script(3)}]})
    experiment = api(page, "POST", "/experiments", {"workflow_id": workflow, "dataset_id": dataset["id"]})
    experiment_done(page, experiment["id"])

    page.goto(f"/workflows/{workflow}/evaluations")
    page.get_by_role("button", name=f"#{experiment['id']}", exact=False).click()
    page.get_by_test_id("label-rounds").click()
    focus = page.get_by_test_id("round-focus")
    expect(focus).to_contain_text("Round 1 of 3")
    focus.focus()
    # Round 1 not good (the judge said not done: right), round 2 good (it said not done: too late), round 3 good (right).
    page.keyboard.press("n")
    expect(focus).to_contain_text("Round 2 of 3")
    page.keyboard.press("y")
    expect(focus).to_contain_text("Round 3 of 3")
    page.keyboard.press("y")
    expect(page.get_by_test_id("judge-agreement")).to_contain_text("Judge agreement 67 % over 3 labelled rounds: 2 right, 0 too early, 1 too late")
    page.keyboard.press("k")
    expect(focus).to_contain_text("Round 2 of 3")
    expect(page.get_by_test_id("round-label")).to_have_text("good enough")


def test_a_finished_runs_rounds_are_labelled_from_its_run_page(page):
    page.goto("/")
    workflow = api(page, "POST", "/workflows", {"source": judge_loop("labels-run-page", 3)})["id"]
    run = api(page, "POST", "/runs", {"workflow_id": workflow, "provider": "simulated", "script": script(2)})
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)
    page.get_by_test_id("run-tab-rounds").click()
    focus = page.get_by_test_id("round-focus")
    expect(focus).to_contain_text("Round 1 of 2")
    focus.focus()
    # Round 1 was good enough already (the judge said not done: too late); round 2 good (done: right).
    page.keyboard.press("y")
    expect(focus).to_contain_text("Round 2 of 2")
    page.keyboard.press("y")
    expect(page.get_by_test_id("judge-agreement")).to_contain_text("Judge agreement 50 % over 2 labelled rounds: 1 right, 0 too early, 1 too late")
    labels = api(page, "GET", f"/runs/{run['id']}/rounds")
    assert [(r["iteration"], r["good"]) for r in labels] == [(0, True), (1, True)]

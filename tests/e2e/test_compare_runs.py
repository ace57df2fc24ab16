"""Two runs of one workflow side by side in Chromium: where they part, the verdicts in words, an output word diff."""
from __future__ import annotations

import time

from tests.support.browser import api
from tests.support.documents import judge_loop

NOT_YET = {"content": "not yet", "result": {"done": False, "reason": "too short"}}
DONE = {"content": "good", "result": {"done": True, "reason": "complete"}}


def finished(page, workflow_id: int, drafts: list[str], judge: list[dict]) -> str:
    run = api(page, "POST", "/runs", {"workflow_id": workflow_id, "provider": "simulated",
                                      "script": {"replies": {"draft": drafts, "judge": judge}}})
    deadline = time.time() + 30
    while api(page, "GET", f"/runs/{run['id']}")["status"] not in ("completed", "partial", "failed", "cancelled"):
        assert time.time() < deadline, "the run did not finish"
        time.sleep(0.1)
    return run["id"]


def test_the_comparison_shows_where_two_runs_part_and_how_their_outputs_differ(page):
    page.goto("/")
    workflow = api(page, "POST", "/workflows", {"source": judge_loop("compare-e2e", 4)})
    a = finished(page, workflow["id"], ["the quick fox", "a second draft"], [NOT_YET, DONE])
    b = finished(page, workflow["id"], ["the quick fox", "a better second draft", "third"], [NOT_YET, NOT_YET, DONE])

    page.goto(f"/runs/{a}/compare/{b}")
    page.get_by_test_id("run-compare").wait_for()
    assert page.get_by_role("heading", level=1).inner_text().startswith("Compare runs of compare-e2e")
    summary = page.get_by_test_id("compare-diverged").inner_text()
    assert "part first at dev · round 2" in summary, summary
    assert "output and judge verdict differ" in summary, summary

    page.get_by_role("button", name="Show it").click()
    row = page.locator("tr.compare-diverged")
    assert "first difference" in row.inner_text()
    verdicts = row.get_by_test_id("compare-verdict").all_inner_texts()
    assert verdicts == ["⚑ judge said done", "↻ judge said not done"], verdicts
    row.get_by_role("button", name="Show output diff").click()
    diff = page.get_by_test_id("compare-output-diff")
    assert [t.strip() for t in diff.locator("pre ins").all_inner_texts()] == ["better"]
    assert diff.locator("pre del").count() == 0

    # Round 3 only run B reached; the filter keeps only the rows that differ.
    assert "did not get here" in page.locator("tr[data-key='dev.2']").inner_text()
    page.get_by_label("Only rows that differ").check()
    assert page.locator("tr[data-key='dev.0']").count() == 0
    assert page.locator("tr[data-key='dev.2']").count() == 1


def test_runs_of_another_workflow_get_a_clear_message(page):
    page.goto("/")
    one = api(page, "POST", "/workflows", {"source": judge_loop("first-wf", 2)})
    two = api(page, "POST", "/workflows", {"source": judge_loop("second-wf", 2)})
    a = finished(page, one["id"], ["x"], [DONE])
    b = finished(page, two["id"], ["y"], [DONE])
    page.goto(f"/runs/{a}/compare/{b}")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "Could not compare these runs" in alert.inner_text() and "same workflow" in alert.inner_text()


def test_runs_of_two_versions_show_what_changed_in_the_workflow(page):
    page.goto("/")
    source = judge_loop("versions-e2e", 4)
    workflow = api(page, "POST", "/workflows", {"source": source})
    a = finished(page, workflow["id"], ["x"], [DONE])
    api(page, "PUT", f"/workflows/{workflow['id']}", {"source": source.replace("Write a draft.", "Write a shorter draft.")})
    b = finished(page, workflow["id"], ["x"], [DONE])
    page.goto(f"/runs/{a}/compare/{b}")
    versions = page.get_by_test_id("compare-versions")
    versions.wait_for()
    assert "version 1 and version 2" in versions.inner_text()
    versions.locator("summary").click()
    page.wait_for_function("() => document.querySelector('[data-testid=compare-versions]').innerText.includes('shorter')")
    text = versions.inner_text()
    assert "Write a draft." in text and "Write a shorter draft." in text

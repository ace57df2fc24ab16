"""A breakpoint added in the run dialog for one run (issue #33): the server checks it as it is added (a refusal
names its field), the list marks it "this run only", the run holds there, and the workflow's own breakpoints are
as they were: it was never saved with the workflow. Rounds are worded from 1: round 3 is `write.2`."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import api, open_saved_workflow
from tests.support.editor_page import type_script
from tests.support.layout_check import assert_layout_holds
from tests.support.run_pages import wait_run_finished

WORKFLOW = """\
version: 1
name: held-for-one-run
steps:
  - id: write
    instructions: Write the next draft.
    loop:
      maxIterations: 4
"""
SCRIPT = """\
replies:
  write: ["draft zero", "draft one", "draft two", "draft three"]
"""


def test_a_breakpoint_added_for_one_run_holds_it_and_is_not_saved(page):
    wf = open_saved_workflow(page, WORKFLOW)
    page.get_by_test_id("run").click()
    dialog = page.get_by_test_id("run-dialog")
    dialog.wait_for()
    add = dialog.get_by_test_id("run-breakpoint-add")
    add.locator("summary").click()

    # A judge breakpoint on a loop without a judge: the server says which field is wrong.
    kinds = add.get_by_test_id("run-breakpoint-kind")
    assert "judge" not in kinds.locator("option").evaluate_all("os => os.map(o => o.value)")  # no judged loop here
    kinds.select_option("condition")
    add.get_by_test_id("run-breakpoint-condition").fill("steps.write.content.contains(")
    add.get_by_test_id("run-breakpoint-add-button").click()
    expect(add.get_by_test_id("run-breakpoint-error")).to_contain_text("condition:")
    expect(dialog.get_by_test_id("run-breakpoint-added")).to_have_count(0)

    kinds.select_option("round")
    add.get_by_test_id("run-breakpoint-step").select_option("write")
    add.get_by_test_id("run-breakpoint-at").fill("3")
    add.get_by_test_id("run-breakpoint-add-button").click()
    added = dialog.get_by_test_id("run-breakpoint-added")
    expect(added).to_have_count(1)
    expect(added).to_contain_text("before round 3 of write (write.2)")
    expect(added.get_by_test_id("run-breakpoint-run-only")).to_have_text("this run only")
    assert api(page, "GET", f"/workflows/{wf['id']}/breakpoints")["breakpoints"] == []
    assert_layout_holds(page, "the run dialog with a breakpoint added for this run")

    type_script(page, SCRIPT)
    page.get_by_test_id("run-start").click()
    page.wait_for_url("**/runs/*")
    run_id = page.url.rsplit("/", 1)[1]
    hold = page.get_by_test_id("breakpoint-hold")
    hold.wait_for(timeout=60_000)
    expect(hold).to_contain_text("before round 3 of write (write.2)")
    assert api(page, "GET", f"/runs/{run_id}/debug")["breakpoints"] == [
        {"id": "run-1", "kind": "round", "step": "write", "round": 2}]
    hold.get_by_test_id("hold-continue").click()
    assert wait_run_finished(page, run_id)["status"] == "completed"

    # Never saved with the workflow: its own list is empty, and the next run's dialog offers nothing of it.
    assert api(page, "GET", f"/workflows/{wf['id']}/breakpoints")["breakpoints"] == []
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    expect(page.get_by_test_id("run-breakpoint-added")).to_have_count(0)
    expect(page.get_by_test_id("run-breakpoint")).to_have_count(0)

"""A step's margin on the canvas, like a debugger's gutter (issue #33): a click sets the breakpoint before the step
(and a second one clears it), the inspector's toggle shows the same breakpoint at once, the keyboard reaches it, and
a run holds there. A viewer sees the dot of a set breakpoint, in words, and has nothing to toggle; the API refuses
the viewer's change too."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.support.browser import api, csrf, open_saved_workflow
from tests.support.editor_page import type_script
from tests.support.run_pages import wait_run_finished
from tests.support.team_members import sign_up_member

WORKFLOW = """\
version: 1
name: held-in-the-margin
steps:
  - id: draft
    instructions: Write a draft.
  - id: review
    dependsOn: [draft]
    instructions: Review it.
"""
SCRIPT = """\
replies:
  draft: ["the draft"]
  review: ["looks fine"]
"""


def saved_ids(page, workflow_id: int, wanted: list[str], timeout: float = 30) -> list[str]:
    """The workflow's breakpoint ids once they are ``wanted`` (polls: the saves go one after another)."""
    deadline = time.monotonic() + timeout
    while True:
        ids = [b["id"] for b in api(page, "GET", f"/workflows/{workflow_id}/breakpoints")["breakpoints"]]
        if ids == wanted or time.monotonic() > deadline:
            return ids
        time.sleep(0.1)


def test_a_click_in_a_steps_margin_sets_the_breakpoint_a_run_holds_at(page):
    wf = open_saved_workflow(page, WORKFLOW)
    margin = page.get_by_test_id("bp-margin-review")
    expect(margin).to_have_attribute("aria-label", "Set a breakpoint before step review")
    page.locator(".react-flow__node[data-id='review']").hover()
    margin.click()
    expect(margin).to_have_attribute("data-set", "1")
    expect(margin).to_have_attribute("aria-label", "Breakpoint before step review: click to remove")
    expect(margin).to_have_attribute("title", "Breakpoint before step review: click to remove")
    assert saved_ids(page, wf["id"], ["at-review"]) == ["at-review"]

    # The inspector's toggle is the same breakpoint: checked at once; unchecked there, the dot goes.
    page.locator(".react-flow__node[data-id='review'] .node-title").click()
    checkbox = page.get_by_test_id("breakpoint-toggle").get_by_test_id("breakpoint-checkbox")
    expect(checkbox).to_be_checked()
    checkbox.click()
    expect(margin).to_have_attribute("data-set", "0")
    assert saved_ids(page, wf["id"], []) == []
    checkbox.click()
    expect(margin).to_have_attribute("data-set", "1")

    # The keyboard reaches the margin: Enter sets it, Enter again clears it.
    other = page.get_by_test_id("bp-margin-draft")
    other.focus()
    page.keyboard.press("Enter")
    expect(other).to_have_attribute("data-set", "1")
    page.keyboard.press("Enter")
    expect(other).to_have_attribute("data-set", "0")
    assert saved_ids(page, wf["id"], ["at-review"]) == ["at-review"]

    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    expect(page.get_by_test_id("run-breakpoint")).to_have_text("before step review")
    type_script(page, SCRIPT)
    page.get_by_test_id("run-start").click()
    page.wait_for_url("**/runs/*")
    run_id = page.url.rsplit("/", 1)[1]
    hold = page.get_by_test_id("breakpoint-hold")
    hold.wait_for(timeout=60_000)
    expect(hold).to_contain_text("before step review")
    hold.get_by_test_id("hold-continue").click()
    assert wait_run_finished(page, run_id)["status"] == "completed"
    events = api(page, "GET", f"/runs/{run_id}/events")
    assert [e["data"]["breakpoint"]["id"] for e in events if e["type"] == "breakpoint_hit"] == ["at-review"]


def test_a_viewer_sees_the_dot_and_cannot_change_it(page, browser, server):
    page.goto("/runs")
    team = api(page, "POST", "/workspaces", {"name": "Margin viewers"})
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW, "workspace_id": team["id"]})
    api(page, "PUT", f"/workflows/{wf['id']}/breakpoints", {"breakpoints": [{"id": "at-review", "kind": "step", "step": "review"}]})
    viewer = sign_up_member(page, browser, server, team["id"], "viewer", "margin-viewer")
    try:
        seen = viewer.new_page()
        seen.goto(f"/workflows/{wf['id']}")
        seen.wait_for_selector("[data-testid=editor][data-ready='1']")
        dot = seen.get_by_test_id("bp-margin-review")
        expect(dot).to_have_attribute("aria-label", "Breakpoint before step review: your role cannot change breakpoints")
        expect(dot).to_have_attribute("role", "img")
        expect(seen.locator("button.bp-margin")).to_have_count(0)
        expect(seen.get_by_test_id("bp-margin-draft")).to_have_count(0)
        refused = seen.request.put(f"/api/v1/workflows/{wf['id']}/breakpoints", data='{"breakpoints": []}',
                                   headers={"X-CSRFToken": csrf(seen), "Content-Type": "application/json", "Referer": server + "/"})
        assert refused.status == 403
        assert [b["id"] for b in api(page, "GET", f"/workflows/{wf['id']}/breakpoints")["breakpoints"]] == ["at-review"]
    finally:
        viewer.close()

"""The loop debugger in the browser: a breakpoint set before round 3 in the step inspector holds the run there;
the run dialog lists it, the run page shows the hold, the previous output is edited in it, Continue goes on, and
round 3's prompt has the edited text. Rounds are worded from 1, as everywhere on the page: round 3 is `write.2`."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.support.browser import api, open_saved_workflow
from tests.support.editor_page import type_script
from tests.support.run_pages import wait_run_finished

WORKFLOW = """\
version: 1
name: held-at-three
steps:
  - id: write
    instructions: Write the next draft.
    loop:
      maxIterations: 5
"""
SCRIPT = """\
replies:
  write: ["draft zero", "draft one", "draft two", "draft three", "draft four"]
"""
EDITED = "A draft edited in the browser"


def saved_breakpoints(page, workflow_id: int, timeout: float = 30) -> list[dict]:
    deadline = time.monotonic() + timeout
    while True:
        found = api(page, "GET", f"/workflows/{workflow_id}/breakpoints")["breakpoints"]
        if found:
            return found
        assert time.monotonic() < deadline, "the breakpoint was never saved"
        time.sleep(0.1)


def test_a_breakpoint_before_round_3_holds_and_an_edited_output_reaches_round_3(page):
    wf = open_saved_workflow(page, WORKFLOW)
    page.locator(".react-flow__node[data-id='write']").click()
    toggle = page.get_by_test_id("breakpoint-toggle")
    toggle.get_by_test_id("breakpoint-at").fill("3")
    toggle.get_by_test_id("breakpoint-checkbox").click()  # checked once the server kept it
    expect(toggle.get_by_test_id("breakpoint-checkbox")).to_be_checked()
    assert saved_breakpoints(page, wf["id"]) == [{"id": "at-write", "kind": "round", "step": "write", "round": 2}]

    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    expect(page.get_by_test_id("run-breakpoint")).to_have_text("before round 3 of write (write.2)")
    expect(page.get_by_test_id("run-hold-at-breakpoints")).to_be_checked()
    type_script(page, SCRIPT)
    page.get_by_test_id("run-start").click()
    page.wait_for_url("**/runs/*")
    run_id = page.url.rsplit("/", 1)[1]

    hold = page.get_by_test_id("breakpoint-hold")
    hold.wait_for(timeout=60_000)
    expect(hold).to_contain_text("before round 3 of write (write.2)")
    expect(hold.get_by_test_id("hold-previous")).to_have_value("draft one")
    expect(hold.get_by_test_id("hold-prompt")).to_contain_text("draft one")
    hold.get_by_test_id("hold-previous").fill(EDITED)
    hold.get_by_test_id("hold-save-previous").click()
    expect(hold.get_by_test_id("hold-prompt")).to_contain_text(EDITED, timeout=30_000)
    hold.get_by_test_id("hold-continue").click()
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)
    expect(page.get_by_test_id("breakpoint-hold")).to_have_count(0)

    assert wait_run_finished(page, run_id)["status"] == "completed"
    events = api(page, "GET", f"/runs/{run_id}/events")
    [request] = [e for e in events if e["type"] == "agent_turn" and e.get("stepId") == "write.2"
                 and e["data"].get("phase") == "request"]
    assert EDITED in request["data"]["prompt"]["user"]
    assert [e["data"]["action"] for e in events if e["type"] == "debug_action"] == ["edit", "continue"]

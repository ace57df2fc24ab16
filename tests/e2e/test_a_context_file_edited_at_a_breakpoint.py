"""A context file edited in the browser while a run holds at a breakpoint: the hold lists the pending step's context
file with its text (shown as text: the markup in it is not drawn), the edit reaches the prompt shown there, Continue
goes on, and the step's prompt as sent has the edited text while the workflow's file keeps its own."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import api
from tests.support.run_pages import wait_run_finished

WORKFLOW = """\
version: 1
name: noted
steps:
  - {id: plan, instructions: Plan the week.}
  - id: review
    instructions: Review the plan against the notes.
    dependsOn: [plan]
    contextFiles: [notes/deadline.md]
"""
ORIGINAL = "The deadline is <b id=injected>Friday</b>."
EDITED = "The deadline moved to Monday."


def test_a_context_file_edited_at_a_hold_reaches_the_steps_prompt(page):
    page.goto("/runs")
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    api(page, "PUT", f"/workflows/{wf['id']}/file", {"path": "notes/deadline.md", "text": ORIGINAL})
    run = api(page, "POST", "/runs", {"workflow_id": wf["id"], "coordinator": "off",
                                      "script": {"replies": {"plan": ["a plan"], "review": ["reviewed"]}},
                                      "breakpoints": [{"id": "r", "kind": "step", "step": "review"}]})
    page.goto(f"/runs/{run['id']}")

    hold = page.get_by_test_id("breakpoint-hold")
    hold.wait_for(timeout=60_000)
    expect(hold).to_contain_text("before step review")
    row = hold.locator("[data-testid=hold-context-file][data-path='notes/deadline.md']")
    expect(row.get_by_test_id("hold-context-file-text")).to_have_value(ORIGINAL)
    expect(page.locator("#injected")).to_have_count(0)  # the file's text is never drawn as markup
    expect(hold.get_by_test_id("hold-prompt")).to_contain_text(ORIGINAL)

    row.get_by_test_id("hold-context-file-text").fill(EDITED)
    row.get_by_test_id("hold-save-context-file").click()
    expect(hold.get_by_test_id("hold-prompt")).to_contain_text(EDITED, timeout=30_000)
    expect(row).to_contain_text("edited for this execution")
    hold.get_by_test_id("hold-continue").click()
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)

    assert wait_run_finished(page, run["id"])["status"] == "completed"
    events = api(page, "GET", f"/runs/{run['id']}/events")
    [request] = [e for e in events if e["type"] == "agent_turn" and e.get("stepId") == "review"
                 and e["data"].get("phase") == "request"]
    assert EDITED in request["data"]["prompt"]["user"] and ORIGINAL not in request["data"]["prompt"]["user"]
    [edit] = [e for e in events if e["type"] == "debug_action" and e["data"]["action"] == "edit"]
    assert edit["data"]["path"] == "notes/deadline.md" and edit["data"]["actor"]
    kept = api(page, "GET", f"/workflows/{wf['id']}/file?path=notes/deadline.md")
    assert kept["text"] == ORIGINAL

"""The playground's Apply as one undo step in the editor (issue #33): "Try alone" on a finished run's step, edited
instructions applied as a new version; the editor opened on the workflow shows the applied instructions, and one
Ctrl+Z brings the old ones back as an unsaved draft; saving that makes yet another version."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import api, wait_checked
from tests.support.run_pages import start_run_of

FLOW = """name: applied-then-undone
agents:
  writer: {description: Writes.}
steps:
  - {id: draft, agent: writer, instructions: Write a draft.}
  - {id: review, agent: writer, instructions: Review it., dependsOn: [draft]}
"""
SCRIPT = {"replies": {"draft": ["the first draft"], "review": ["fine"]}}


def test_apply_then_one_undo_restores_the_old_instructions(page):
    run = start_run_of(page, FLOW, SCRIPT)
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.get_by_test_id("node-review").click()
    page.get_by_test_id("playground-review").click()
    dialog = page.get_by_test_id("playground-dialog")
    instructions = dialog.get_by_test_id("playground-instructions")
    instructions.wait_for()
    instructions.fill("Review it line by line.")
    dialog.get_by_test_id("playground-apply").click()
    dialog.get_by_test_id("playground-applied").wait_for()
    applied = api(page, "GET", f"/workflows/{run['workflow_id']}")
    assert applied["version"] == 2 and applied["applied_from"] == 1

    page.goto(f"/workflows/{run['workflow_id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    review = page.get_by_test_id("node-review")
    expect(review.locator(".node-text")).to_have_text("Review it line by line.")
    expect(page.get_by_test_id("dirty")).to_have_count(0)
    undo = page.locator("button[title='Undo (Ctrl+Z)']")
    expect(undo).to_be_enabled(timeout=30_000)  # the step back to version 1 is in the history
    page.keyboard.press("Control+z")
    expect(review.locator(".node-text")).to_have_text("Review it.")
    expect(page.get_by_test_id("dirty")).to_be_visible()
    expect(undo).to_be_disabled()  # one step, no more
    assert api(page, "GET", f"/workflows/{run['workflow_id']}")["version"] == 2  # the server rewound nothing

    wait_checked(page)
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("dirty")).to_have_count(0)
    saved = api(page, "GET", f"/workflows/{run['workflow_id']}")
    assert saved["version"] == 3 and saved["applied_from"] is None
    assert saved["document"]["steps"][1]["instructions"] == "Review it."

"""Pinned outputs in the browser (issue #33): on a finished run, "Pin this output" on a step's details; the run
dialog then lists the pin with its switch on, and the run it starts takes the pinned text for that step without
asking the model (its agent turns say pinned, at no tokens), and the canvas marks the step pinned. "Try alone"
opens the step's recorded prompt, runs it with edited instructions beside the original, and applies the edit as
a new version of the workflow; a judge call opens the same way from its verdict."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import api
from tests.support.documents import judge_loop
from tests.support.run_pages import start_run_of, wait_run_finished

FLOW = """name: pin-me
agents:
  writer: {description: Writes.}
steps:
  - {id: draft, agent: writer, instructions: Write a draft.}
  - {id: review, agent: writer, instructions: Review it., dependsOn: [draft]}
"""
SCRIPT = {"replies": {"draft": ["the first draft", "a second draft"], "review": ["fine", "fine again"]}}


def test_a_pinned_step_is_not_asked_again(page):
    run = start_run_of(page, FLOW, SCRIPT)
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.get_by_test_id("node-draft").click()
    page.get_by_test_id("pin-draft").click()
    page.wait_for_selector("[data-testid=pin-draft]:text('Pinned')")
    assert [p["step_path"] for p in api(page, "GET", f"/workflows/{run['workflow_id']}/pins")] == ["draft"]

    page.goto(f"/workflows/{run['workflow_id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    page.get_by_test_id("pinned-draft").wait_for()
    assert page.get_by_test_id("run-use-pins").is_checked()
    page.get_by_test_id("run-start").click()
    page.wait_for_url("**/runs/*")
    second = page.url.rsplit("/", 1)[1]
    ended = wait_run_finished(page, second)
    assert ended["status"] == "completed" and ended["pins"] == ["draft"]
    turns = [e for e in api(page, "GET", f"/runs/{second}/events") if e["type"] == "agent_turn" and e.get("stepId") == "draft"]
    assert turns and all(e["data"].get("pinned") for e in turns)
    assert all((e.get("tokens") or {}).get("total", 0) == 0 for e in turns)
    draft_end = next(e for e in api(page, "GET", f"/runs/{second}/events?type=step_end") if e.get("stepId") == "draft")
    assert draft_end["data"]["content"] == "the first draft"
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    status = page.get_by_test_id("node-draft").get_by_test_id("node-status")
    status.wait_for()
    assert "pinned" in status.inner_text()
    assert page.get_by_test_id("run-pinned").inner_text().strip() == "· 1 pinned"
    # Compared with the run it was pinned from, the draft's row says which side a pin answered.
    page.goto(f"/runs/{run['id']}/compare/{second}")
    draft_row = page.locator("tr", has=page.get_by_text("draft", exact=True)).first
    draft_row.get_by_test_id("compare-pinned").wait_for()
    assert page.get_by_test_id("compare-pinned").count() == 1


def test_try_a_step_alone_and_apply_it(page):
    run = start_run_of(page, FLOW, SCRIPT)
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.get_by_test_id("node-review").click()
    page.get_by_test_id("playground-review").click()
    dialog = page.get_by_test_id("playground-dialog")
    dialog.wait_for()
    instructions = dialog.get_by_test_id("playground-instructions")
    instructions.wait_for()
    assert instructions.input_value() == "Review it."
    assert dialog.get_by_test_id("playground-original").inner_text().strip() == "fine"
    instructions.fill("Review it line by line.")
    dialog.get_by_test_id("playground-try").click()
    dialog.get_by_test_id("playground-result").wait_for()
    dialog.get_by_test_id("playground-apply").click()
    dialog.get_by_test_id("playground-applied").wait_for()
    saved = api(page, "GET", f"/workflows/{run['workflow_id']}")
    assert saved["version"] == 2 and saved["document"]["steps"][1]["instructions"] == "Review it line by line."
    # The run tried from is as it was.
    assert api(page, "GET", f"/runs/{run['id']}")["last_seq"] == wait_run_finished(page, run["id"])["last_seq"]


JUDGED = judge_loop("judge-tried", 3)
JUDGED_SCRIPT = {"replies": {"draft": ["draft one", "draft two"],
                             "judge": [{"content": "not yet", "result": {"done": False, "reason": "too short"}},
                                       {"content": "ok", "result": {"done": True, "reason": "fine"}}]}}


def test_a_judge_call_is_tried_alone_from_its_verdict_and_applied(page):
    run = start_run_of(page, JUDGED, JUDGED_SCRIPT)
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.locator("[data-testid='node-dev'] .node-title").first.click()
    page.get_by_test_id("playground-dev.0.untilAgent").click()
    dialog = page.get_by_test_id("playground-dialog")
    # The dialog opens before the call it tries has loaded: wait for its words.
    expect(dialog).to_contain_text("A judge call of agent judge", timeout=30_000)
    expect(dialog.get_by_test_id("playground-original")).to_have_text("not yet", timeout=30_000)
    # Its prompt changed (tried, not saved) and its temperature (saved by Apply).
    dialog.locator("summary").click()
    user = dialog.get_by_test_id("playground-user")
    assert "draft one" in user.input_value()
    user.fill(user.input_value() + "\nBe lenient.")
    dialog.get_by_test_id("playground-temperature").fill("0.2")
    dialog.get_by_test_id("playground-try").click()
    dialog.get_by_test_id("playground-result").wait_for()
    assert "temperature 0.2" in dialog.inner_text()
    dialog.get_by_test_id("playground-apply").click()
    dialog.get_by_test_id("playground-applied").wait_for()
    saved = api(page, "GET", f"/workflows/{run['workflow_id']}")
    assert saved["version"] == 2 and saved["document"]["agents"]["judge"]["temperature"] == 0.2
    assert api(page, "GET", f"/runs/{run['id']}")["last_seq"] == wait_run_finished(page, run["id"])["last_seq"]

"""A loop's rounds on the run page, in Chromium: "Last output" is the loop's output, not its judge's reply; ✓ means
finished in every loop and a judge's "done" has its own mark and words; "Re-run from here" is on every verdict row
without opening a round, and once per round when one is open; a round's inner step cards start afresh instead of
showing the round before; a call waiting for a person is not among the tools running now, and its time leaves
the decision out."""
from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.support.browser import api
from tests.support.run_pages import start_run_of, wait_run_finished

NOT_YET = {"content": "not yet", "result": {"done": False, "reason": "too short"}}
DONE = {"content": "the judge says good", "result": {"done": True, "reason": "complete"}}
TWO_LOOPS = """
name: two-loops
agents:
  writer: {description: Writes.}
  judge:
    description: Judges.
    resultSchema:
      type: object
      required: [done]
      properties: {done: {type: boolean}, reason: {type: string}}
steps:
  - id: write
    loop:
      maxIterations: 5
      untilAgent: judge
      steps:
        - id: draft
          agent: writer
          instructions: Write a draft.
        - id: review
          agent: writer
          dependsOn: [draft]
          instructions: Review it.
  - id: each
    agent: writer
    dependsOn: [write]
    instructions: Handle the item.
    loop: {forEach: ["a", "b"], maxConcurrency: 1}
"""
SCRIPT = {"replies": {"draft": ["draft 1", "draft 2", "draft 3"], "review": ["review 1", "review 2", "review 3"],
                      "judge": [NOT_YET, NOT_YET, DONE], "each": ["did a", "did b"]}}
GATED = """
version: 1
name: gated-time
agents:
  coder:
    description: Runs a command.
    tools: [bash]
steps:
  - id: work
    agent: coder
    instructions: Run it.
"""
GATED_SCRIPT = {"replies": {"work": [{"tool_calls": [{"id": "gate1", "name": "bash", "arguments": {"command": "echo hi"}}]}, "done"]}}


def test_marks_outputs_and_re_run_buttons_read_one_way(page):
    run = start_run_of(page, TWO_LOOPS, SCRIPT)
    assert wait_run_finished(page, run["id"])["status"] == "completed"
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')")

    # The last output is the loop's last step's, named where it was written; not the judge's reply.
    expect(page.get_by_test_id("live-output")).to_have_text("did b")
    assert "the judge says good" not in page.get_by_test_id("live-output").inner_text()

    # ✓ is "finished" in every loop; the judge's "done" is ⚑, and the words say which.
    judged = page.locator("[data-testid='iterations-write'] [data-testid=iteration-cell]")
    judged.nth(2).wait_for()
    assert [judged.nth(i).locator(".iter-verdict").inner_text() for i in range(3)] == ["↻", "↻", "⚑"]
    assert "judge said done" in judged.nth(2).get_attribute("title")
    items = page.locator("[data-testid='iterations-each'] [data-testid=iteration-cell]")
    assert [items.nth(i).locator(".iter-verdict").inner_text() for i in range(2)] == ["✓", "✓"]
    assert "judge" not in items.nth(0).get_attribute("title")

    # On the Live tab, every verdict row has its one "Re-run from here", no round opened.
    rows = page.get_by_test_id("run-side").get_by_test_id("verdict")
    assert rows.count() == 3
    for i in range(3):
        assert rows.nth(i).get_by_role("button", name="Re-run from here").count() == 1

    # A round opened on the strip: one "Re-run from here" for the round, not one per card inside it.
    judged.nth(1).click()
    details = page.get_by_test_id("iteration-details")
    details.wait_for()
    assert details.get_by_role("button", name="Re-run from here").count() == 1
    assert page.get_by_test_id("fork-iteration-write.1").count() == 1


def test_a_rounds_inner_cards_start_afresh_instead_of_showing_the_round_before(page):
    slow = {**SCRIPT, "latency": 1.2}
    run = start_run_of(page, TWO_LOOPS, slow)
    page.goto(f"/runs/{run['id']}")
    review = page.locator("[data-testid='node-write/review'] [data-testid=node-status]")
    # Round 1's review finished; then, while round 2's draft is written, its review has not run yet.
    page.wait_for_function("""() => {
        const cells = document.querySelectorAll("[data-testid='iterations-write'] [data-testid=iteration-cell]");
        const draft = document.querySelector("[data-testid='node-write/draft'] [data-testid=node-status]");
        return cells.length >= 2 && cells[1].dataset.status === 'running' && draft && draft.innerText.startsWith('running');
    }""", timeout=60_000)
    shown = review.inner_text() if review.count() else ""
    assert not shown.startswith("completed"), f"round 2's review card shows round 1's state: {shown!r}"
    # Once round 2's review runs and ends, its card says so.
    page.wait_for_function("""() => {
        const cells = document.querySelectorAll("[data-testid='iterations-write'] [data-testid=iteration-cell]");
        const card = document.querySelector("[data-testid='node-write/review'] [data-testid=node-status]");
        return cells.length >= 2 && cells[1].dataset.status !== 'running' && card && card.innerText.startsWith('completed');
    }""", timeout=60_000)
    api(page, "POST", f"/runs/{run['id']}/stop", {})


def test_a_call_waiting_for_a_person_is_not_running_and_its_time_leaves_the_wait_out(page):
    page.goto("/runs")
    workflow = api(page, "POST", "/workflows", {"source": GATED})
    run = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": GATED_SCRIPT,
                                      "ask_before": ["bash"]})
    page.goto(f"/runs/{run['id']}")
    waiting = page.locator("[data-testid=pending-approval][data-call-id=gate1]")
    waiting.wait_for()
    page.get_by_test_id("run-tab-live").click()
    assert page.get_by_test_id("running-tools").count() == 0, "a call waiting for approval is listed as running"
    asked = time.monotonic()
    while time.monotonic() - asked < 2.5:  # a person taking their time to decide: the call is not running meanwhile
        assert page.get_by_test_id("running-tools").count() == 0
        page.wait_for_timeout(250)
    waiting.get_by_test_id("approve-call").click()
    page.wait_for_selector("[data-testid=run-status]:text('completed')")

    end = next(e for e in api(page, "GET", f"/runs/{run['id']}/events?type=tool_call") if e["data"]["phase"] == "end")
    assert end["data"]["waited_ms"] >= 2500
    assert end["durationMs"] < end["data"]["waited_ms"]  # echo took less than the person did
    page.get_by_test_id("run-tab-tools").click()
    call = page.locator("[data-testid=tool-call][data-call-id=gate1]")
    call.wait_for()
    assert re.search(r"\(\+ \d+(\.\d+)? s waiting for approval\)", call.inner_text()), call.inner_text()

"""One vocabulary on the run page: iterations 1-based with the format's id beside, the judge named as
such (with its time and status in Metrics), loop output labelled with its source step, paused steps
shown as paused, and an Events tab that joins streamed text per turn and shows times, verdicts and
control actions."""
from __future__ import annotations

import re

from tests.support.browser import api

WORKFLOW = """\
name: writer-critic
agents:
  writer:
    description: Writes.
  judge:
    description: Judges.
    resultSchema:
      type: object
      required: [done]
      properties:
        done: {type: boolean}
        reason: {type: string}
steps:
  - id: refine
    loop:
      maxIterations: 3
      untilAgent: judge
      outputMode: cumulative
      steps:
        - id: draft
          agent: writer
          instructions: Draft.
        - id: critic
          agent: writer
          dependsOn: [draft]
          instructions: Criticise.
"""

SCRIPT = {
    "latency": 0.05,
    "replies": {
        "draft": ["first draft words here", "second draft words here"],
        "critic": ["critic says more", "critic says fine"],
        "judge": [{"content": "no", "result": {"done": False, "reason": "needs detail"}},
                  {"content": "yes", "result": {"done": True, "reason": "all good"}}],
    },
}


def start(page, script=SCRIPT) -> str:
    page.goto("/runs")
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    run = api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": script})
    page.goto(f"/runs/{run['id']}")
    return run["id"]


def tab(page, name: str) -> None:
    page.locator("[role=tab]", has_text=name).click()


def test_finished_judge_loop_reads_in_one_vocabulary(page):
    start(page)
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.locator("[data-testid='node-refine'] .node-title").click()
    label = page.get_by_test_id("loop-output-label")
    label.wait_for()
    assert "Cumulative output: every inner step of every finished iteration" in label.inner_text()
    verdicts = page.locator("[data-testid=verdict]")
    assert verdicts.first.inner_text().startswith("round 1")

    page.locator("[data-testid='iterations-refine'] [data-testid=iteration-cell]").nth(1).click()
    details = page.get_by_test_id("iteration-details")
    details.wait_for()
    assert "round 2" in details.inner_text() and "refine.1" in details.inner_text()
    assert "Iteration output of critic" in page.get_by_test_id("iteration-output-label").inner_text()

    tab(page, "metrics")
    judge_row = page.locator("tr", has_text="refine · the judge of round 1 (refine.0.untilAgent)")
    judge_row.wait_for()
    assert "completed" in judge_row.inner_text()
    assert re.search(r"\d+(\.\d+)?\s*(ms|s)", judge_row.inner_text())

    tab(page, "events")
    log = page.get_by_test_id("event-log")
    log.wait_for()
    outputs = log.locator("li[data-type=output]")
    texts = [outputs.nth(i).inner_text() for i in range(outputs.count())]
    assert any("first draft words here" in t for t in texts), texts  # whole, never split mid-word
    assert re.search(r"\d\d:\d\d:\d\d\.\d{3}", log.inner_text())
    verdict = log.locator("li[data-type=judge_verdict]").first
    assert "judge of round 1: not done — needs detail" in verdict.inner_text()


def test_pausing_shows_paused_steps_and_the_control_actions_in_events(page):
    slow = {**SCRIPT, "latency": 0.6}
    run_id = start(page, slow)
    page.wait_for_selector("[data-testid=run-status]:text('running')", timeout=30_000)
    page.locator("[data-testid='node-refine/draft'] [data-testid=node-status]").wait_for(timeout=30_000)
    page.get_by_test_id("pause").click()
    page.wait_for_selector("[data-testid=run-status]:text('paused')", timeout=30_000)
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=node-status]')].some((e) => e.textContent.startsWith('paused'))"
                           " || [...document.querySelectorAll('[data-testid=node-status]')].every((e) => !e.textContent.startsWith('running'))")
    assert page.locator("[data-testid=node-status]", has_text=re.compile(r"^running")).count() == 0
    page.get_by_test_id("resume").click()
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)
    tab(page, "events")
    controls = page.locator("[data-testid=event-log] li[data-type=run_control]")
    controls.first.wait_for()
    words = " ".join(controls.nth(i).inner_text() for i in range(controls.count()))
    assert "run paused" in words and "run resumed" in words
    events = api(page, "GET", f"/runs/{run_id}/events?after=0")
    assert [e["data"]["action"] for e in events if e["type"] == "run_control"] == ["pause", "resume"]

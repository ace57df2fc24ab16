"""The run header's clock, opened (or reloaded) while the run is paused, shows the time the run has
worked: it stands still, it counts neither the pause going on nor an earlier one, and it is not less
than the time already run."""
from __future__ import annotations

import re
import time
from datetime import datetime

from tests.support.browser import api

WORKFLOW = """\
name: paused-clock
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
steps:
  - id: polish
    loop:
      maxIterations: 60
      untilAgent: judge
      steps:
        - id: write
          agent: writer
          instructions: Improve it.
"""

# Slow replies and a judge that never says done: the run outlasts the test (which stops it).
SCRIPT = {"latency": 0.4, "replies": {"write": ["more"], "judge": [{"content": "no", "result": {"done": False}}]}}


def shown_seconds(page) -> float:
    """The header clock in seconds, as formatMs writes it ("812 ms", "3.4 s", "1m 5s")."""
    text = page.get_by_test_id("run-figures").inner_text()
    if m := re.match(r"(\d+)m (\d+)s", text):
        return int(m[1]) * 60 + int(m[2])
    m = re.match(r"(\d+(?:\.\d+)?) (ms|s)\b", text)
    assert m, f"no time in the header: {text!r}"
    return float(m[1]) / (1000 if m[2] == "ms" else 1)


def seconds(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


def test_a_reload_while_paused_shows_the_time_at_work_and_it_stands_still(page):
    page.goto("/runs")
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    run_id = api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": SCRIPT})["id"]
    try:
        page.goto(f"/runs/{run_id}")
        page.wait_for_selector("[data-testid=run-status]:text('running')", timeout=30_000)
        # Work, a first pause of 3 s, more work, then a second pause that is going on when the page reloads.
        time.sleep(1.5)
        api(page, "POST", f"/runs/{run_id}/pause")
        time.sleep(3)
        api(page, "POST", f"/runs/{run_id}/resume")
        time.sleep(1.5)
        run = api(page, "POST", f"/runs/{run_id}/pause")
        assert run["status"] == "paused" and run["paused_at"] and run["paused_ms"] >= 3000, run
        worked = seconds(run["paused_at"]) - seconds(run["started_at"]) - run["paused_ms"] / 1000
        time.sleep(3)  # a clock that counted the pause going on would now be 3 s ahead

        page.reload()
        page.wait_for_selector("[data-testid=run-status]:text('paused')", timeout=30_000)
        page.wait_for_function("() => /\\d/.test(document.querySelector('[data-testid=run-figures]')?.innerText ?? '')")
        first = shown_seconds(page)
        assert "(paused)" in page.get_by_test_id("run-figures").inner_text()
        # Not less than the time already run (one decimal shown), and neither pause counted.
        assert worked - 0.15 <= first <= worked + 0.15, (first, worked)
        time.sleep(2)
        assert shown_seconds(page) == first, "the clock moved while the run was paused"

        # On resume it goes on from there, not from the time paused.
        page.get_by_test_id("resume").click()
        page.wait_for_selector("[data-testid=run-status]:text('running')", timeout=30_000)
        time.sleep(1.2)
        after = shown_seconds(page)
        assert first < after <= first + 3, (first, after)
    finally:
        api(page, "POST", f"/runs/{run_id}/stop")  # the run would otherwise go on for minutes

"""A loop's panel shows the problems about the loop that none of its fields shows: an empty `loop:`
block, a setting of the other loop mode."""
from __future__ import annotations

from tests.support.browser import api, wait_checked

WORKFLOW = """\
name: broken-loops
agents:
  writer:
    description: Writes.
steps:
  - id: empty
    agent: writer
    instructions: Work.
    loop: {}
  - id: each
    agent: writer
    instructions: Handle it.
    loop:
      forEach: [a, b]
      maxIterations: 3
"""


def open_loop(page, key: str) -> None:
    page.locator(f"[data-testid='node-{key}'] .node-title").first.click()
    page.locator("[data-testid=inspector] .segmented[aria-label='Loop mode']").wait_for()


def test_a_loops_own_problems_show_in_its_settings(page):
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)

    open_loop(page, "empty")
    shown = page.get_by_test_id("loop-problems").inner_text()
    assert "an empty `loop:` block is not allowed" in shown, shown

    open_loop(page, "each")
    shown = page.get_by_test_id("loop-problems").inner_text()
    assert "a forEach loop cannot have `maxIterations`" in shown, shown
    # Shown once: the forEach panel has no maxIterations field to show it under.
    assert page.locator("[data-testid=inspector] .field-problem", has_text="cannot have `maxIterations`").count() == 1

"""Switching a loop between forEach and repeat-until swaps its settings (and its inspector panel) and
keeps keyboard focus on the switch."""
from __future__ import annotations

from tests.support.browser import api, wait_checked
from tests.support.editor_page import yaml_has

WORKFLOW = """\
name: modes
agents:
  writer:
    description: Writes.
steps:
  - id: each
    agent: writer
    instructions: Handle it.
    loop:
      forEach: [a, b]
      maxConcurrency: 2
"""


def focused_text(page) -> str:
    return page.evaluate("() => document.activeElement ? document.activeElement.textContent : ''")


def test_switching_the_loop_mode_swaps_the_settings_and_keeps_focus(page):
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    page.locator("[data-testid='node-each'] .node-title").first.click()
    mode = page.get_by_role("group", name="Loop mode")

    mode.get_by_role("button", name="repeat-until").click()
    page.locator("#f-loop\\.maxIterations").wait_for()
    assert page.locator(".insp-section-head h4").first.inner_text() == "Repeat-until loop"
    assert page.locator("#f-loop\\.maxConcurrency").count() == 0
    page.wait_for_function("() => document.activeElement && document.activeElement.textContent === 'repeat-until'")

    page.keyboard.press("Shift+Tab")
    assert focused_text(page) == "forEach"
    page.keyboard.press("Enter")
    page.locator("#f-loop\\.maxConcurrency").wait_for()
    assert page.locator(".insp-section-head h4").first.inner_text() == "forEach loop"
    page.wait_for_function("() => document.activeElement && document.activeElement.textContent === 'forEach'")
    wait_checked(page)
    # Back to a forEach over the placeholder items: the repeat-until settings went with the switch.
    yaml_has(page, "forEach:", "- first", "- second")

"""Watching agents act, in Chromium: a gated call is approved from the run page, the tool calls show inside their
turns (folded, searchable, output as text), and the workspace panel shows what each iteration changed."""
from __future__ import annotations

from tests.support.browser import api

WORKFLOW = """\
version: 1
name: tool-watch
agents:
  coder:
    description: Writes the code.
    tools: [bash, read, write, edit]
steps:
  - id: refine
    agent: coder
    instructions: Improve app.py.
    loop:
      maxIterations: 2
      until: iteration >= 1
"""

SCRIPT = {"latency": 0.2, "replies": {"refine": [
    {"tool_calls": [{"id": "w0", "name": "write", "arguments": {"path": "app.py", "content": "print('one')\n"}},
                    {"id": "x0", "name": "write",
                     "arguments": {"path": "notes.md", "content": "<img src=x onerror=\"window.__pwned=1\">"}}]},
    "first version",
    {"tool_calls": [{"id": "gate1", "name": "bash", "arguments": {"command": "sed -i s/one/two/ app.py && cat app.py"}}]},
    "second version",
]}}


def test_approve_a_call_then_read_the_calls_and_the_iterations_diff(page):
    workflow = api(page, "POST", "/workflows", {"source": WORKFLOW})
    run = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "script": SCRIPT, "ask_before": ["bash"]})
    page.goto(f"/runs/{run['id']}")

    waiting = page.locator("[data-testid=pending-approval][data-call-id=gate1]")
    waiting.wait_for(timeout=30_000)
    assert "sed -i s/one/two/ app.py" in page.get_by_test_id("pending-approvals").inner_text()
    waiting.get_by_test_id("approve-call").click()
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    assert page.get_by_test_id("pending-approvals").count() == 0

    page.get_by_test_id("run-tab-tools").click()
    calls = page.get_by_test_id("tool-call")
    calls.nth(2).wait_for()
    assert calls.count() == 3
    gated = page.locator("[data-testid=tool-call][data-call-id=gate1]")
    assert "approved by" in gated.inner_text()
    toggle = gated.get_by_test_id("tool-call-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert "print('two')" in gated.get_by_test_id("tool-call-output").inner_text()

    # Search narrows the list to the calls that mention it.
    page.get_by_test_id("tool-search").fill("notes.md")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=tool-call]').length === 1")
    hostile = page.locator("[data-testid=tool-call][data-call-id=x0]")
    assert "<img src=x" in hostile.inner_text()  # shown as text ...
    assert page.locator("[data-testid=tool-calls] img").count() == 0  # ... never as markup
    page.get_by_test_id("tool-search").fill("")

    page.get_by_test_id("run-tab-workspace").click()
    items = page.get_by_test_id("snapshot-item")
    items.nth(1).wait_for()
    labels = [items.nth(i).get_attribute("data-label") for i in range(items.count())]
    assert labels[:2] == ["refine.0", "refine.1"], labels
    items.nth(1).click()
    page.get_by_test_id("ws-view-changes").click()
    changed = page.locator("[data-testid=diff-file][data-path='app.py']")
    changed.wait_for()
    assert changed.get_attribute("data-change") == "modified"
    assert "print('two')" in changed.locator(".diff-add").all_inner_texts()[-1]
    assert "print('one')" in changed.locator(".diff-del").all_inner_texts()[-1]

    page.get_by_test_id("ws-view-files").click()
    page.locator("[data-testid=tree-file][data-path='app.py']").click()
    page.wait_for_function("() => (document.querySelector('[data-testid=file-content]')?.innerText || '').includes(\"print('two')\")")
    zip_link = page.get_by_test_id("workspace-zip")
    assert zip_link.get_attribute("href").endswith(f"/runs/{run['id']}/workspace.zip")
    assert page.evaluate("() => window.__pwned") is None

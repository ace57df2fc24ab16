"""Symbolic links an agent makes in its workspace are in the run page's file tree as links, each with its target
as written (one pointing at the server's files, one dangling, one inside), never followed: the snapshot keeps
their targets as text and no content of theirs, and only the regular file opens."""
from __future__ import annotations

from tests.support.browser import api

WORKFLOW = """\
version: 1
name: linker
agents:
  coder:
    description: Makes links.
    tools: [bash, write]
steps:
  - id: make
    agent: coder
    instructions: Make some links.
"""

# One turn's tool calls run side by side (runtime/engine/toolcalls.py), so `bash` makes notes/ itself rather than
# count on `write` having made it first (a slow host once ran bash first, and notes/dangling was never made).
SCRIPT = {"replies": {"make": [
    {"tool_calls": [{"id": "w", "name": "write", "arguments": {"path": "notes/today.md", "content": "hello\n"}},
                    {"id": "l", "name": "bash", "arguments": {
                        "command": "mkdir -p notes && ln -s /etc/passwd secret && ln -s notes/today.md shortcut"
                                   " && ln -s ../gone notes/dangling"}}]},
    "made them",
]}}


def test_the_file_tree_shows_links_with_their_targets_never_followed(page):
    workflow = api(page, "POST", "/workflows", {"source": WORKFLOW})
    run = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "script": SCRIPT})
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)

    latest = api(page, "GET", f"/runs/{run['id']}/workspace")["snapshots"][-1]["number"]
    listed = api(page, "GET", f"/runs/{run['id']}/workspace/snapshots/{latest}/files")
    assert listed["links"] == [{"path": "notes/dangling", "target": "../gone"}, {"path": "secret", "target": "/etc/passwd"},
                               {"path": "shortcut", "target": "notes/today.md"}]
    assert [f["path"] for f in listed["files"]] == ["notes/today.md"]  # a link is no file: nothing of its target is kept

    page.get_by_test_id("run-tab-workspace").click()
    secret = page.locator("[data-testid=tree-link][data-path=secret]")
    secret.wait_for()
    assert secret.inner_text().split() == ["secret", "→", "/etc/passwd"]
    assert "symbolic link" in secret.get_attribute("title")
    assert page.locator("[data-testid=tree-link][data-path='notes/dangling']").inner_text().endswith("../gone")
    # Only the regular file opens; a link is a row with nothing to open, and nothing of /etc/passwd shows.
    assert [f.get_attribute("data-path") for f in page.locator("[data-testid=tree-file]").all()] == ["notes/today.md"]
    assert page.locator("[data-testid=tree-link] button, button[data-testid=tree-link]").count() == 0
    assert "root:" not in page.get_by_test_id("workspace-panel").inner_text()

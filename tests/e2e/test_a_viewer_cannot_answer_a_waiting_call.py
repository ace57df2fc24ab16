"""Roles in the UI equal roles in the API: a viewer watching a run whose call waits for approval sees
Approve and Deny disabled with the reason in words (the API would answer 403), while the owner answers."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import VIEWPORT, api

WORKFLOW = """\
version: 1
name: gated
agents:
  coder:
    description: Runs a command.
    tools: [bash]
steps:
  - id: work
    agent: coder
    instructions: Run it.
"""
SCRIPT = {"replies": {"work": [{"tool_calls": [{"id": "gate1", "name": "bash", "arguments": {"command": "echo hi"}}]},
                               "done"]}}


def test_a_viewer_sees_approve_disabled_with_the_reason_and_the_owner_answers(page, browser, server):
    team = api(page, "POST", "/workspaces", {"name": "Reviewers"})
    link = api(page, "POST", f"/workspaces/{team['id']}/invitations", {"role": "viewer"})["url"]
    workflow = api(page, "POST", "/workflows", {"source": WORKFLOW, "workspace_id": team["id"]})
    run = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": SCRIPT,
                                      "ask_before": ["bash"]})

    viewer = browser.new_context(viewport=VIEWPORT, base_url=server)
    other = viewer.new_page()
    other.set_default_timeout(45_000)
    try:
        other.goto(link[link.index("/join/"):])
        other.get_by_test_id("join-signup").click()
        other.fill("input[name=username]", "watcher")
        other.fill("input[name=password1]", "a-long-pass-phrase-9")
        other.fill("input[name=password2]", "a-long-pass-phrase-9")
        other.locator("form button[type=submit]").click()
        other.wait_for_url(f"**/?workspace={team['id']}")

        other.goto(f"/runs/{run['id']}")
        waiting = other.locator("[data-testid=pending-approval][data-call-id=gate1]")
        waiting.wait_for()
        approve = waiting.get_by_test_id("approve-call")
        expect(approve).to_be_disabled()
        expect(waiting.get_by_test_id("deny-call")).to_be_disabled()
        assert "viewer" in (approve.get_attribute("title") or "")
        expect(other.get_by_test_id("approvals-who")).to_contain_text("cannot start or control runs")

        # The owner, on the same page, may answer; the viewer's page follows the run to its end.
        page.goto(f"/runs/{run['id']}")
        mine = page.locator("[data-testid=pending-approval][data-call-id=gate1]")
        expect(mine.get_by_test_id("approve-call")).to_be_enabled()
        mine.get_by_test_id("approve-call").click()
        other.wait_for_selector("[data-testid=run-status]:text('completed')")
    finally:
        viewer.close()

"""A team on one server, in the browser: the owner makes a team workspace and invites a colleague as a
runner; the colleague follows the link, signs up, lands in the team, opens the shared workflow (read
only for a runner) and watches the owner's run live until it completes."""
from __future__ import annotations

import re

from tests.support.browser import CHROMIUM_ARGS, VIEWPORT, api  # noqa: F401  (CHROMIUM_ARGS: same browser, second person)

WORKFLOW = ("name: shared-loop\nsteps:\n  - id: draft\n    instructions: Write.\n"
            "  - id: polish\n    dependsOn: [draft]\n    instructions: Polish.\n")
SLOW = {"latency": 1.5, "replies": {"draft": ["first draft"], "polish": ["polished"]}}


def make_team_and_invite(page) -> tuple[int, str]:
    page.goto("/")
    page.get_by_test_id("workspace-switcher").click()
    page.get_by_test_id("workspace-new").click()
    page.get_by_test_id("workspace-new-name").fill("Writers")
    page.get_by_test_id("workspace-new-create").click()
    # A new team opens on its settings page, current in the switcher.
    page.wait_for_url(re.compile(r"/workspaces/\d+$"))
    team = next(w for w in api(page, "GET", "/workspaces") if w["name"] == "Writers")
    assert page.url.endswith(f"/workspaces/{team['id']}")
    page.wait_for_function("() => document.querySelector('[data-testid=workspace-switcher]')?.innerText.includes('Writers')")
    page.get_by_test_id("ws-invite-role").select_option("runner")
    page.get_by_test_id("ws-invite-create").click()
    link = page.get_by_test_id("ws-invite-link").input_value().strip()
    assert "/join/inv_" in link
    page.locator("[data-testid=ws-invitation-row]").first.wait_for()  # the pending list reloaded
    # The team's own key: stored from the page, shown as set, never shown back.
    page.get_by_test_id("ws-key-value").fill("sk-team-secret-123")
    page.get_by_test_id("ws-key-save").click()
    page.locator("[data-testid=ws-key-openai][data-set='1']").wait_for()
    assert "sk-team-secret-123" not in page.content()
    return team["id"], link


def test_an_invited_colleague_joins_opens_the_shared_workflow_and_watches_the_run_live(page, browser, server):
    team_id, link = make_team_and_invite(page)
    workflow = api(page, "POST", "/workflows", {"source": WORKFLOW, "workspace_id": team_id})

    colleague = browser.new_context(viewport=VIEWPORT, base_url=server)
    other = colleague.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.set_default_timeout(15_000)
    try:
        other.goto(link[link.index("/join/"):])
        other.get_by_test_id("join-signup").click()
        other.fill("input[name=username]", "colleague")
        other.fill("input[name=password1]", "a-long-pass-phrase-9")
        other.fill("input[name=password2]", "a-long-pass-phrase-9")
        other.locator("form button[type=submit]").click()
        other.wait_for_url(f"**/?workspace={team_id}")
        other.wait_for_function("() => document.querySelector('[data-testid=workspace-switcher]')?.innerText.includes('Writers')")

        # The shared workflow is in the list; a runner opens it read-only.
        other.get_by_text("shared-loop").first.click()
        other.wait_for_selector("[data-testid=editor][data-ready='1']")
        other.get_by_test_id("read-only-banner").wait_for()
        assert "runner" in other.get_by_test_id("read-only-banner").inner_text()

        # The owner starts a slow run; the colleague finds it in the runs list and watches it live.
        run = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": SLOW})
        other.goto("/runs")
        other.locator(f"a[href='/runs/{run['id']}']").first.click()
        other.wait_for_selector("[data-testid=run-status]:text('running')", timeout=15_000)
        other.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
        other.get_by_text("polished").first.wait_for()
        assert api(page, "GET", f"/runs/{run['id']}")["status"] == "completed"
        members = api(page, "GET", f"/workspaces/{team_id}")["members"]
        assert {(m["username"], m["role"]) for m in members} == {("e2e", "owner"), ("colleague", "runner")}
    finally:
        colleague.close()
    assert not errors, f"uncaught errors in the colleague's page: {errors}"

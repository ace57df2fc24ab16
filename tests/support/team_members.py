"""People in a team workspace for the browser tests: a member invited with a role signs up through the invitation
link in a browser context of their own, as a person would."""
from __future__ import annotations

from tests.support.browser import VIEWPORT, api

MEMBER_PASSWORD = "a-long-pass-phrase-9"


def sign_up_member(owner_page, browser, server: str, workspace_id: int, role: str, username: str):
    """A new browser context signed in as ``username``, who joined workspace ``workspace_id`` as ``role`` through an
    invitation ``owner_page``'s user made. The caller closes the context."""
    link = api(owner_page, "POST", f"/workspaces/{workspace_id}/invitations", {"role": role})["url"]
    context = browser.new_context(viewport=VIEWPORT, base_url=server)
    page = context.new_page()
    page.set_default_timeout(45_000)
    page.goto(link[link.index("/join/"):])
    page.get_by_test_id("join-signup").click()
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", MEMBER_PASSWORD)
    page.fill("input[name=password2]", MEMBER_PASSWORD)
    page.locator("form button[type=submit]").click()
    page.wait_for_url(f"**/?workspace={workspace_id}")
    return context

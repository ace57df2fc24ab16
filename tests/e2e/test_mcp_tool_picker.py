"""An MCP server from the account page to an agent's tools: the fixture stdio server is added and checked through
the account page (in the real sandbox), and its tools appear in the agent inspector's tool picker, grouped and
described; ticking one saves it in the agent's `tools` with no "unknown tool" warning beside the picker."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from tests.support.accessibility import assert_no_blocking_violations
from tests.support.browser import VIEWPORT, api, wait_checked
from tests.support.editor_page import open_writer_critic

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mcp"
STDIO_SERVER = FIXTURES / "stdio_server.py"
ENV_SECRET = "e2e-mcp-env-secret-0117"
# The sandbox shows a stdio server only what it binds: the interpreter, its packages, the fixture's folder
# (tests/fixtures/mcp/servers.py SANDBOX_PATHS). The session's server inherits this environment (base_env).


def add_and_check_the_fixture_server(page) -> None:
    page.goto("/account/")
    form = page.get_by_test_id("mcp-add-stdio")
    form.get_by_label("Name", exact=True).fill("fixture")
    form.get_by_label("Command", exact=True).fill(sys.executable)
    form.get_by_label("Arguments (one per line)").fill(str(STDIO_SERVER))
    form.get_by_label("Environment (NAME=value per line; values are not shown again)").fill(f"API_TOKEN={ENV_SECRET}")
    form.get_by_role("button", name="Add stdio server").click()
    server = page.get_by_test_id("mcp-server-fixture")
    server.wait_for()
    assert "Environment: API_TOKEN (values hidden)" in server.inner_text()
    page.get_by_test_id("mcp-check-fixture").click()
    answer = page.get_by_test_id("mcp-answer")
    answer.wait_for(timeout=60_000)
    assert answer.inner_text().startswith("fixture: found ") and "add_numbers" in answer.inner_text(), answer.inner_text()
    assert "add_numbers — Add two integers and answer their sum." in page.get_by_test_id("mcp-server-fixture").inner_text()
    assert ENV_SECRET not in page.content()


def saved_agent(page, wf_id: int, done) -> dict:
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 15
    while True:
        agent = api(page, "GET", f"/workflows/{wf_id}")["document"]["agents"]["writer"]
        if done(agent) or time.monotonic() > deadline:
            return agent
        time.sleep(0.2)


def audit_the_account_page(browser, server, auth_state) -> None:
    """axe-core, as test_accessibility_audit does (it needs the policy bypassed to inject itself), with a server listed."""
    for scheme in ("light", "dark"):
        ctx = browser.new_context(viewport=VIEWPORT, base_url=server, color_scheme=scheme, bypass_csp=True,
                                  storage_state=auth_state)
        try:
            audited = ctx.new_page()
            audited.goto("/account/")
            audited.get_by_test_id("mcp-server-fixture").wait_for()
            assert_no_blocking_violations(audited, f"account page with an MCP server ({scheme})")
        finally:
            ctx.close()


def test_an_mcp_servers_tools_are_picked_for_an_agent_from_the_inspector(page, browser, server, auth_state):
    add_and_check_the_fixture_server(page)
    try:
        audit_the_account_page(browser, server, auth_state)
        pick_an_mcp_tool(page)
    finally:  # the session's user is shared: later tests expect the built-in tools only
        for server in api(page, "GET", "/account/mcp-servers"):
            if not server.get("admin"):
                api(page, "DELETE", f"/account/mcp-servers/{server['id']}")


def pick_an_mcp_tool(page) -> None:
    wf_id = open_writer_critic(page)
    page.get_by_role("tab", name="Agents").click()
    page.locator(".agent-chip", has_text="writer").click()
    inspector = page.get_by_test_id("inspector")
    group = inspector.get_by_test_id("agent-tool-mcp-group")
    group.wait_for()
    assert group.get_by_text("From your MCP servers").is_visible()
    assert "Add two integers and answer their sum." in group.inner_text()
    assert inspector.get_by_test_id("agent-tool-server-add_numbers").inner_text() == "fixture"
    assert inspector.get_by_test_id("agent-tool-bash").count() == 1 and group.get_by_test_id("agent-tool-bash").count() == 0

    # Leaving "all tools" lists every tool, the MCP ones too: take one out, save, then tick it again.
    inspector.get_by_test_id("agent-tools-all").uncheck()
    group.get_by_test_id("agent-tool-add_numbers").uncheck()
    agent = saved_agent(page, wf_id, lambda a: "tools" in a and "add_numbers" not in a["tools"])
    assert "crash" in agent["tools"] and "bash" in agent["tools"], agent
    group.get_by_test_id("agent-tool-add_numbers").check()
    agent = saved_agent(page, wf_id, lambda a: "add_numbers" in a.get("tools", []))
    assert agent["tools"][-1] == "add_numbers", agent
    wait_checked(page)
    tools_field = inspector.locator("[data-field=tools]")
    assert group.get_by_test_id("agent-tool-add_numbers").is_checked()
    assert "not provided" not in tools_field.inner_text()
    # The list names every tool, our own `edit` too, so the one warning is that one (zenflow's runner refuses it);
    # nothing is said about the MCP tool.
    problems = page.get_by_test_id("problems")
    assert "add_numbers" not in problems.inner_text()
    assert '"edit"' in problems.inner_text()

"""The run dialog's permissions and reasoning level, in Chromium against a server of the test's own whose workspace
key points at the fake OpenAI server: strict with bash denied and read allowed, and reasoning "high", picked in the
dialog. The fake receives `reasoning_effort: high` on every call, the run refuses the denied bash call (the model
reads why), the run page's header says what the run used, the reasoning the provider returned shows folded in the
step, Run again keeps both and the dialog remembers them."""
from __future__ import annotations

import pytest

from tests.fakes import FakeOpenAI
from tests.support.browser import api, signed_in_context
from tests.support.layout_check import assert_layout_holds
from tests.support.run_pages import wait_run_finished
from tests.support.servers import server_allowing_private_urls

USERNAME = "guard"
WORKFLOW = """\
name: guarded
agents:
  coder: {description: Looks around., model: openai/gpt-test, tools: [bash, read]}
steps:
  - {id: look, agent: coder, instructions: List the files.}
"""
THOUGHT = "I shall list the files with bash."
REPLIES = [
    {"tool_calls": [{"id": "sh1", "name": "bash", "arguments": {"command": "ls"}}], "reasoning": THOUGHT,
     "usage": {"prompt": 20, "completion": 9, "reasoning": 7}},
    {"content": "bash is denied here; nothing listed."},
]


@pytest.fixture(scope="module")
def fake():
    with FakeOpenAI(default={"content": "done"}) as server:
        yield server


@pytest.fixture(scope="module")
def own_server():
    # A workspace's key may point at a loopback address on this server only (the fake).
    with server_allowing_private_urls(USERNAME) as url:
        yield url


def test_strict_with_a_denied_tool_and_a_reasoning_level_chosen_in_the_dialog(browser, own_server, fake):
    fake.replies.extend(REPLIES)
    ctx = signed_in_context(browser, own_server, USERNAME)
    try:
        page = ctx.new_page()
        page.goto("/runs")
        personal = next(w for w in api(page, "GET", "/workspaces") if w["personal"])
        api(page, "PUT", f"/workspaces/{personal['id']}/keys", {"provider": "openai", "api_key": "sk-fake-key",
                                                                "base_url": fake.url + "/v1"})
        wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
        page.goto(f"/workflows/{wf['id']}")
        page.wait_for_selector("[data-testid=editor][data-ready='1']")

        page.get_by_test_id("run").click()
        page.get_by_test_id("run-dialog").wait_for()
        page.get_by_test_id("run-provider").select_option("openai")
        page.get_by_test_id("run-coordinator").select_option("off")  # the fake's replies are the agent's alone
        page.get_by_test_id("run-thinking").select_option("high")
        page.get_by_test_id("perm-mode-strict").check()
        # Strict with nothing allowed warns (no call would run); allowing read answers it.
        page.get_by_test_id("perm-problem").wait_for()
        page.get_by_test_id("perm-allow-read").check()
        page.get_by_test_id("perm-deny-bash").check()
        assert page.get_by_test_id("perm-problem").count() == 0
        assert_layout_holds(page, "the run dialog with its permissions")
        # A tool both allowed and denied is said at once, and the start waits until it is not.
        page.get_by_test_id("perm-allow-bash").check()
        assert "bash cannot be both allowed and denied" in page.get_by_test_id("perm-problem").inner_text()
        page.get_by_test_id("run-start").click()
        page.get_by_role("alert").filter(has_text="bash cannot be both allowed and denied").wait_for()
        page.get_by_test_id("perm-allow-bash").uncheck()
        page.get_by_test_id("run-start").click()
        page.wait_for_url("**/runs/*")
        run_id = page.url.rsplit("/", 1)[1]
        run = wait_run_finished(page, run_id)
        assert run["status"] == "completed", run["reason"]
        assert run["thinking"] == "high"
        assert run["permissions"] == {"allow": ["read"], "deny": ["bash"], "strict": True}

        # The level reached the provider as its own field, on every call of the run.
        assert len(fake.requests) == 2
        assert [r.json.get("reasoning_effort") for r in fake.requests] == ["high", "high"]
        # The denied call was refused where it is carried out, and the model read why.
        ends = [e for e in api(page, "GET", f"/runs/{run_id}/events?type=tool_call")
                if e["type"] == "tool_call" and e["data"]["phase"] == "end"]
        assert [e["data"]["tool_name"] for e in ends] == ["bash"]
        assert "denied for this run" in (ends[0].get("error") or "")
        told = fake.requests[1].json["messages"][-1]
        assert told["role"] == "tool" and "denied for this run" in told["content"]

        # The header says what the run used.
        page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
        assert page.get_by_test_id("run-thinking").inner_text() == "reasoning high"
        assert page.get_by_test_id("run-permissions").inner_text() == "tools: strict · allows read · denies bash"
        assert_layout_holds(page, "the run page's header with the run's options")
        page.get_by_test_id("run-tab-tools").click()
        refused = page.locator("[data-testid=tool-call][data-call-id=sh1]")
        refused.wait_for()
        assert refused.get_attribute("data-state") == "failed"

        # The reasoning the provider returned, folded in the step's details.
        page.locator("[data-testid='node-look']").click()
        folded = page.get_by_test_id("step-reasoning")
        folded.wait_for()
        assert "1 turn, 7 tokens" in folded.locator("summary").first.inner_text()
        turn = folded.get_by_test_id("reasoning-turn")
        assert not turn.locator("pre").is_visible()
        folded.locator("summary").first.click()
        turn.locator("summary").click()
        assert turn.locator("pre").inner_text() == THOUGHT

        # Run again keeps both.
        page.get_by_test_id("run-again").click()
        page.wait_for_function(f"() => !location.pathname.endsWith({run_id!r}) && location.pathname.startsWith('/runs/')")
        again = wait_run_finished(page, page.url.rsplit("/", 1)[1])
        assert (again["thinking"], again["permissions"]) == ("high", {"allow": ["read"], "deny": ["bash"], "strict": True})
        assert fake.requests[-1].json.get("reasoning_effort") == "high"

        # The dialog opened again remembers the choices.
        page.goto(f"/workflows/{wf['id']}")
        page.wait_for_selector("[data-testid=editor][data-ready='1']")
        page.get_by_test_id("run").click()
        page.get_by_test_id("run-dialog").wait_for()
        assert page.get_by_test_id("run-thinking").input_value() == "high"
        assert page.get_by_test_id("perm-mode-strict").is_checked()
        assert page.get_by_test_id("perm-deny-bash").is_checked()
    finally:
        ctx.close()

"""Giving agents tools from the browser: the agent inspector's tool pickers write `tools` and `disallowedTools`
(and keep a name the server does not know, flagged), and the run dialog starts a run from an uploaded zip
with "ask before" tools; a refused zip shows the server's reason."""
from __future__ import annotations

import re
import time

from tests.support.browser import api
from tests.support.editor_page import open_writer_critic
from tests.support.zips import zip_bytes


def test_tool_pickers_then_a_run_from_an_uploaded_zip_that_asks_before_bash(page, tmp_path):
    wf_id = open_writer_critic(page)
    page.get_by_role("tab", name="Agents").click()
    page.locator(".agent-chip", has_text="writer").click()
    all_tools = page.get_by_test_id("agent-tools-all").first
    all_tools.wait_for()
    assert all_tools.is_checked()  # no `tools` key: every tool
    all_tools.uncheck()
    # Our own `edit` is marked as ours, with the reason in words: zenflow's runner refuses it.
    assert page.get_by_test_id("agent-tool-ours-edit").first.inner_text().strip() == "ours"
    assert "zenflow's runner refuses" in page.get_by_test_id("agent-tool-note-edit").first.inner_text()
    assert page.get_by_test_id("agent-tool-ours-write").count() == 0
    page.get_by_test_id("agent-tool-bash").first.uncheck()
    page.get_by_test_id("agent-disallowed-edit").first.check()
    page.keyboard.press("Control+s")
    deadline = time.monotonic() + 15
    while True:
        agent = api(page, "GET", f"/workflows/{wf_id}")["document"]["agents"]["writer"]
        if "tools" in agent or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert agent["tools"] == ["read", "write", "glob", "grep", "edit"]
    assert agent["disallowedTools"] == ["edit"]
    # Listing `edit` is warned in Problems (it runs here, not in zenflow's runner), without blocking the run.
    page.locator("[data-testid=problems] [data-testid=problem]", has_text='tool "edit" is this server').first.wait_for()

    page.get_by_test_id("run").click()
    dialog = page.get_by_role("dialog", name="Start a run")
    dialog.wait_for()
    section = dialog.get_by_test_id("run-workspace")
    section.get_by_test_id("ws-start-upload").check()
    bad = tmp_path / "bad.zip"
    bad.write_bytes(zip_bytes({"../escape.txt": b"x"}))
    section.get_by_test_id("ws-upload-input").set_input_files(str(bad))
    status = section.get_by_test_id("ws-upload-status")
    page.wait_for_function("() => (document.querySelector('[data-testid=ws-upload-status]')?.innerText || '').includes('../escape.txt')")
    good = tmp_path / "good.zip"
    good.write_bytes(zip_bytes({"brief.md": b"# the brief\n", "data/items.csv": b"a,b\n"}))
    section.get_by_test_id("ws-upload-input").set_input_files(str(good))
    page.wait_for_function("() => /2 files/.test(document.querySelector('[data-testid=ws-upload-status]')?.innerText || '')")
    assert "2 files" in status.inner_text()
    dialog.get_by_test_id("ask-before-bash").check()

    with page.expect_response(lambda r: r.url.endswith("/api/v1/runs") and r.request.method == "POST") as started:
        dialog.get_by_test_id("run-start").click()
    assert started.value.status == 201, started.value.text()[:500]
    sent = started.value.request.post_data_json
    assert sent["ask_before"] == ["bash"] and sent["workspace_upload"]
    run_id = started.value.json()["id"]
    page.wait_for_url(re.compile(rf"/runs/{re.escape(str(run_id))}$"))
    # Without a script the simulated critic never passes the draft: the loop runs out. The files are there anyway.
    page.wait_for_function("() => /completed|partial|failed/.test(document.querySelector('[data-testid=run-status]')?.innerText)",
                           timeout=60_000)
    info = api(page, "GET", f"/runs/{run_id}/workspace")
    assert info["ask_before"] == ["bash"]
    start = info["snapshots"][0]
    assert (start["label"], start["added"]) == ("start", 2)

    # The dialog opened again says what it carried over ("asks before bash"), and starts from defaults on request.
    page.goto(f"/workflows/{wf_id}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("run").click()
    dialog.wait_for()
    carried = dialog.get_by_test_id("run-settings-from")
    carried.wait_for()
    assert "asks before bash" in carried.inner_text()
    assert dialog.get_by_test_id("ask-before-bash").is_checked()
    carried.get_by_test_id("run-settings-reset").click()
    assert not dialog.get_by_test_id("ask-before-bash").is_checked()
    assert dialog.get_by_test_id("run-settings-from").count() == 0

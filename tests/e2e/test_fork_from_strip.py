"""Re-run from here in Chromium: from a round the iteration strip opens, with an edited instruction; the new
run keeps the rounds before it, and the comparison with its parent shows where the two part."""
from __future__ import annotations

from tests.support.browser import api
from tests.support.documents import RIVERS_SCRIPT, rivers_loop
from tests.support.run_pages import wait_run_finished

WORKFLOW = rivers_loop("fork-e2e")


def test_a_fork_from_the_strip_with_an_edited_instruction_diverges_from_its_parent_there(page):
    page.goto("/")
    workflow = api(page, "POST", "/workflows", {"source": WORKFLOW})
    parent = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": RIVERS_SCRIPT})
    assert wait_run_finished(page, parent["id"])["loops"]["write"]["rounds_completed"] == 4

    page.goto(f"/runs/{parent['id']}")
    strip = page.get_by_test_id("iterations-write")
    strip.wait_for()
    strip.get_by_test_id("iteration-cell").nth(2).click()
    page.get_by_test_id("iteration-details").wait_for()
    page.get_by_test_id("fork-iteration-write.2").click()

    dialog = page.get_by_test_id("fork-dialog")
    dialog.wait_for()
    assert dialog.get_by_role("heading").inner_text() == "Re-run from round 3 of write"
    assert "Rounds 1 to 2 and their verdicts are kept" in dialog.inner_text()
    instructions = dialog.get_by_test_id("fork-field-instructions")
    assert instructions.input_value() == "Write a draft about rivers."
    instructions.fill("Write a poem about mountains.")
    assert dialog.get_by_test_id("fork-field-agent:judge").count() == 1  # the judge's prompt is offered too
    dialog.get_by_test_id("fork-start").click()

    page.wait_for_url(lambda url: "/runs/" in url and parent["id"] not in url)
    fork_id = page.url.rstrip("/").split("/runs/")[1].split("/")[0].split("?")[0]
    fork = wait_run_finished(page, fork_id)
    assert fork["status"] == "completed", fork["reason"]
    assert fork["parent"] == parent["id"] and fork["fork_point"]["iteration"] == 2
    assert fork["version"] == 2  # the edit is a new version of the workflow
    events = api(page, "GET", f"/runs/{fork_id}/events")
    asked = [e["stepId"] for e in events if e["type"] == "agent_turn" and e["data"].get("phase") == "request"
             and e["seq"] > fork["start_seq"] and e.get("agent") != "coordinator"]  # its turns belong to no step
    assert asked == ["write.2", "write.2.untilAgent", "write.3", "write.3.untilAgent"]

    header = page.get_by_test_id("fork-parent")
    header.wait_for()
    assert "from round 3 of write" in header.inner_text()
    header.get_by_role("link", name="Compare with the parent").click()
    page.get_by_test_id("run-compare").wait_for()
    summary = page.get_by_test_id("compare-diverged").inner_text()
    assert "part first at write · round 3" in summary, summary
    assert "output" in summary, summary
    assert "version 1 and version 2" in page.get_by_test_id("compare-versions").inner_text()

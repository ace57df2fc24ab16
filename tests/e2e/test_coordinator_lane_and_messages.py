"""Agents that talk, watched in Chromium: upstream's loop-bidirectional.yaml (read where it lives) with its script
(docs/scripts/), run simulated with a coordinator. As the run goes, the coordinator's narration comes into its
lane and a message flies over the canvas from the coordinator into `loop-stages.1.worker` (its text on hover);
the Messages tab lists every message with where it got to, searchable; the synthesis is the run's summary, on
the run page and in the runs list.

Each worker's send_message waits for approval (ask_before), so the run is live while the page watches it,
whatever the machine's load: the page opens before the first message is sent."""
from __future__ import annotations

from tests.support.browser import api
from tests.support.servers import REPO
from tests.support.upstream_spec import SPEC

EXAMPLE = SPEC / "examples" / "loop-bidirectional.yaml"
SCRIPT = REPO / "docs" / "scripts" / "loop-bidirectional.script.yaml"

# Every message flight that appears on the page, recorded as it is added (each is removed when it lands).
RECORD_FLIGHTS = """
window.__flights = [];
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) {
    if (n.nodeType !== 1) continue;
    const found = n.matches('[data-testid=message-flight]') ? [n] : [...n.querySelectorAll('[data-testid=message-flight]')];
    for (const el of found) window.__flights.push({ from: el.dataset.from, to: el.dataset.to, state: el.dataset.state, title: el.title });
  }
}).observe(document, { childList: true, subtree: true });
"""


def approve_next(page, approved: set[str]) -> None:
    waiting = page.locator("[data-testid=pending-approval][data-tool=send_message]").first
    waiting.wait_for(timeout=60_000)
    call = waiting.get_attribute("data-call-id")
    assert call not in approved
    waiting.get_by_test_id("approve-call").click()
    approved.add(call)
    page.wait_for_selector(f"[data-testid=pending-approval][data-call-id='{call}']", state="detached", timeout=60_000)


def flights_to(page, target: str) -> list[dict]:
    return page.evaluate("(t) => window.__flights.filter((f) => f.to === t)", target)


def test_the_coordinator_is_watched_live_and_its_synthesis_is_the_summary(page):
    page.goto("/runs")
    workflow = api(page, "POST", "/workflows", {"source": EXAMPLE.read_text()})
    run = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": SCRIPT.read_text(),
                                     "ask_before": ["send_message"]})
    assert run["coordinator"] == "narrate"  # the default over HTTP
    page.add_init_script(RECORD_FLIGHTS)
    page.goto(f"/runs/{run['id']}")
    lane = page.get_by_test_id("coordinator-lane")
    lane.wait_for()
    page.get_by_test_id("coordinator-hub").wait_for()

    approved: set[str] = set()
    approve_next(page, approved)  # round 1's worker reports its stage
    # Live: the narration comes into the lane, and the coordinator's forward flies into round 2's worker, while
    # round 2's own report still waits for its approval.
    lane.get_by_test_id("coordinator-narration").filter(has_text="Stage 1 is done").wait_for(timeout=60_000)
    page.wait_for_function("() => window.__flights.some((f) => f.to === 'loop-stages.1.worker')", timeout=60_000)
    assert page.get_by_test_id("run-status").inner_text() != "completed"
    into = flights_to(page, "loop-stages.1.worker")
    assert into[0]["from"] == "coordinator" and into[0]["state"] == "delivered"
    assert "Stage 1 finished the parse task at metric 0.91" in into[0]["title"]  # its text on hover
    sent = page.evaluate("() => window.__flights.filter((f) => f.to === 'coordinator').map((f) => f.from)")
    assert sent == ["loop-stages.0.worker"]
    forward = lane.locator("[data-testid=coordinator-forward][data-to='loop-stages.1.worker']")
    assert "context_update" in forward.inner_text()

    approve_next(page, approved)  # round 2
    approve_next(page, approved)  # round 3
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)

    # The synthesis: at the end of the lane, and as the run's summary under its header.
    synthesis = "Three stages ran in turn (metrics 0.91, 0.95, 0.97)"
    assert synthesis in lane.get_by_test_id("coordinator-synthesis").inner_text()
    page.wait_for_selector(f"[data-testid=run-summary]:has-text('{synthesis}')")
    narrated = lane.get_by_test_id("coordinator-narration").all_inner_texts()
    assert [any(f"Stage {n} is done" in t for t in narrated) for n in (1, 2, 3)] == [True, True, True]
    # Flights land and go: none is left on the canvas.
    page.wait_for_function("() => document.querySelectorAll('[data-testid=message-flight]').length === 0")

    # The Messages tab: every message, where it got to, searchable.
    page.get_by_test_id("run-tab-messages").click()
    rows = page.get_by_test_id("message-row")
    rows.nth(4).wait_for()
    assert rows.count() == 5  # three reports to the coordinator, two forwards
    assert page.locator("[data-testid=message-row][data-state=drained]").count() == 5
    into_round_2 = page.locator("[data-testid=message-row][data-to='loop-stages.1.worker']")
    text = into_round_2.inner_text()
    assert "coordinator" in text and "context_update" in text and "read by loop-stages.1.worker" in text
    page.get_by_test_id("messages-search").fill("STAGE_2")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=message-row]').length === 1")
    assert "loop-stages.1.worker" in rows.first.inner_text()

    # And in the runs list, under the workflow's name.
    page.goto("/runs")
    page.get_by_test_id("run-row-summary").filter(has_text=synthesis).first.wait_for()


NOTES = """\
name: shared-notes
agents:
  auditor: {description: audits}
  fixer: {description: fixes}
steps:
  - {id: audit, agent: auditor, instructions: Audit.}
  - {id: fix, agent: fixer, dependsOn: [audit], instructions: Fix.}
"""
NOTES_SCRIPT = {"replies": {
    "audit": [{"tool_calls": [{"name": "shared_memory_write", "arguments": {"key": "found", "value": "<img src=x onerror=\"window.__pwned=1\">"}}]},
              "audited"],
    "fix": [{"tool_calls": [{"name": "shared_memory_write", "arguments": {"key": "plan", "value": "fix all"}}]}, "fixed"],
    "coordinator": [{"when": "have all ended", "tool_calls": [{"name": "finalize", "arguments": {"summary": "Noted and fixed."}}]},
                    "ok"],
}}


def test_shared_memory_shows_as_a_table_by_namespace_with_its_writer(page):
    page.goto("/runs")
    workflow = api(page, "POST", "/workflows", {"source": NOTES})
    run = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": NOTES_SCRIPT,
                                     "shared_memory": True})
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)
    page.get_by_test_id("run-tab-messages").click()
    page.get_by_test_id("memory-row").nth(1).wait_for()
    namespaces = page.get_by_test_id("memory-namespace")
    assert [namespaces.nth(i).get_attribute("data-namespace") for i in range(namespaces.count())] == ["auditor", "fixer"]
    found = page.locator("[data-testid=memory-row][data-key='auditor/found']")
    cells = found.locator("td").all_inner_texts()
    assert cells == ["found", '<img src=x onerror="window.__pwned=1">', "audit"]  # a model's value, shown as text
    assert page.evaluate("() => window.__pwned") is None
    assert page.locator("[data-testid=memory-row][data-key='fixer/plan'] td").all_inner_texts() == ["plan", "fix all", "fix"]
    assert "Noted and fixed." in page.get_by_test_id("run-summary").inner_text()

"""Runs started from the browser tests (tests/e2e) through a signed-in page's API session: any workflow with its
script, or a judged polish loop slow enough to watch; one already finished and shown; the wait for a run's end."""
from __future__ import annotations

import time

from tests.support.browser import api
from tests.support.documents import polish_loop

SLOW_POLISH = polish_loop("slow-polish", 4)

SLOW_POLISH_SCRIPT = """\
latency: 0.35
replies:
  write: ["round one", "round two", "round three", "round four"]
  publish: "published"
  judge:
    - {content: "no", result: {done: false, reason: "first pass"}}
    - {content: "no", result: {done: false, reason: "second pass"}}
    - {content: "no", result: {done: false, reason: "third pass"}}
    - {content: "yes", result: {done: true, reason: "finished"}}
"""


def start_polish_run(page, latency: float = 0.35) -> dict:
    """Saves SLOW_POLISH and starts it with SLOW_POLISH_SCRIPT, each simulated reply taking ``latency`` seconds."""
    wf = api(page, "POST", "/workflows", {"source": SLOW_POLISH})
    assert wf["valid"], wf["errors"]
    script = SLOW_POLISH_SCRIPT.replace("latency: 0.35", f"latency: {latency}")
    return api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": script})


def start_run_of(page, source: str, script: dict, policies: dict | None = None) -> dict:
    """Saves ``source`` and starts it on the simulated provider with ``script`` (and the run's ``policies``)."""
    wf = api(page, "POST", "/workflows", {"source": source})
    assert wf["valid"], wf["errors"]
    body = {"workflow_id": wf["id"], "provider": "simulated", "script": script}
    if policies:
        body["policies"] = policies
    return api(page, "POST", "/runs", body)


def finished_run(page) -> dict:
    """A quick polish run, shown on its page once it has completed."""
    run = start_polish_run(page, latency=0.05)
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    return run


def wait_run_finished(page, run_id: str, timeout: float = 90) -> dict:
    """The run's record once it has ended (completed, partial, failed or cancelled), polled through the page's session."""
    deadline = time.monotonic() + timeout
    while True:
        run = api(page, "GET", f"/runs/{run_id}")
        if run["status"] in ("completed", "partial", "failed", "cancelled"):
            return run
        assert time.monotonic() < deadline, f"run {run_id} still {run['status']} after {timeout} s"
        time.sleep(0.1)

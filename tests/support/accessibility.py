"""axe-core in the browser: inject the npm package's build, run it over the whole document,
and word its serious and critical findings so a failure says what to fix and where."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

from tests.support.browser import api
from tests.support.documents import polish_loop
from tests.support.servers import REPO

AXE = REPO / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
# A11Y_IMPACTS=minor,moderate,serious,critical widens the audit while fixing; the suite fails on BLOCKING only.
IMPACTS = tuple(os.environ.get("A11Y_IMPACTS", ",".join(BLOCKING)).split(","))

# A workflow with a judged loop (the loop to select in the editor, the verdicts on the run page).
WORKFLOW = polish_loop("audited-polish", 3)

SCRIPT = """\
latency: 0.01
replies:
  write: ["round one", "round two", "round three"]
  publish: "published"
  judge:
    - {content: "no", result: {done: false, reason: "first pass"}}
    - {content: "no", result: {done: false, reason: "second pass"}}
    - {content: "yes", result: {done: true, reason: "finished"}}
"""



def audit(page) -> list[dict]:
    """Runs axe-core over the page as it stands; returns the serious and critical violations."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: `npm ci` in frontend/ installs axe-core (a dev dependency)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,"
        " nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary || ''}))}))"
    )
    return [v for v in found if v["impact"] in IMPACTS]


def describe(violations: list[dict], shown: int = int(os.environ.get("A11Y_SHOW", "4"))) -> str:
    """One paragraph per rule: its id and help, then the first few elements and why each fails."""
    parts = []
    for v in violations:
        lines = [f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])} element(s)) {v['helpUrl']}"]
        for n in v["nodes"][:shown]:
            why = " ".join(n["summary"].split())
            lines.append(f"    {n['target']}\n        {why[:400]}")
        if len(v["nodes"]) > shown:
            lines.append(f"    ... and {len(v['nodes']) - shown} more")
        parts.append("\n".join(lines))
    return "\n".join(parts)


def assert_no_blocking_violations(page, where: str) -> None:
    shots = os.environ.get("A11Y_SHOTS")  # a folder: a screenshot of each audited page, to look at the palettes
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{re.sub(r'[^a-z0-9]+', '-', where.lower()).strip('-')}.png"))
    found = audit(page)
    assert not found, f"axe-core on {where} ({page.url}):\n{describe(found)}"


def settle(page) -> None:
    """Lets transitions and late renders finish so axe sees the page a person would."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(250)


def _wait_run(page, run_id: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        run = api(page, "GET", f"/runs/{run_id}")
        if run["status"] in ("completed", "partial", "failed", "cancelled"):
            return run
        if time.monotonic() > deadline:
            raise AssertionError(f"run {run_id} still {run['status']} after {timeout:.0f} s")
        time.sleep(0.2)


def seed(page) -> dict:
    """A workflow saved twice (so it has versions), a second workflow, a finished run and a stopped one."""
    page.goto("/runs")  # any page of the app: gives the CSRF cookie
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    assert wf["valid"], wf["errors"]
    api(page, "PUT", f"/workflows/{wf['id']}", {"source": WORKFLOW.replace("Three rounds", "Up to three rounds")})
    other = api(page, "POST", "/workflows", {"source": WORKFLOW.replace("name: audited-polish", "name: audited-copy")})
    done = api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": SCRIPT})
    slow = SCRIPT.replace("latency: 0.01", "latency: 2")
    stopped = api(page, "POST", "/runs", {"workflow_id": other["id"], "provider": "simulated", "script": slow})
    api(page, "POST", f"/runs/{stopped['id']}/stop")
    for run in (done, stopped):
        _wait_run(page, run["id"])
    return {"workflow": wf["id"], "run": done["id"], "stopped_run": stopped["id"]}

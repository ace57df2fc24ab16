"""A run whose server was killed mid-loop and went on when it started again, seen in Chromium: its header and its
Details say where and why it resumed, the events of the lost attempt are marked superseded on the page as in the
API, the resume's own row in Events shows whole with its seq and time, and the loop's time spans the resume. A big
run (the page drawn from the server's view) says in its header that it resumed, too."""
from __future__ import annotations

import re
import time
from datetime import datetime

from tests.support.browser import VIEWPORT, signed_in_context
from tests.support.documents import judge_loop
from tests.support.live_runs import LIVENESS, wait_status
from tests.support.servers import base_env, kill_hard, running_server, server_process

ROUNDS = 8


def script() -> dict:
    verdicts = [{"content": f"round {i}", "result": {"done": False, "reason": f"not yet {i}"}} for i in range(ROUNDS - 1)]
    verdicts.append({"content": "ship it", "result": {"done": True, "reason": "good"}})
    return {"latency": 0.3, "replies": {"draft": [f"draft {i}" for i in range(ROUNDS)], "judge": verdicts}}


def rounds_judged(client, run_id: str) -> int:
    return sum(1 for e in client.get(f"/runs/{run_id}/events").json() if e["type"] == "judge_verdict")


def test_a_resumed_run_says_where_and_why_marks_the_lost_events_and_times_its_loop_across_the_resume(browser):
    env = base_env(**LIVENESS)
    with running_server(env, users=("owner",)) as first, first.client("owner") as client:
        workflow = client.post("/workflows", json={"source": judge_loop("resumed-page", ROUNDS)}).json()
        run = client.post("/runs", json={"workflow_id": workflow["id"], "script": script()}).json()
        deadline = time.monotonic() + 90
        while rounds_judged(client, run["id"]) < 3:
            assert time.monotonic() < deadline, "the run did not reach its fourth round"
            time.sleep(0.1)
        kill_hard(first.process)
    with server_process(env, first.tokens) as second, second.client("owner") as client:
        final = wait_status(client, run["id"], ("completed",), timeout=120)
        events = client.get(f"/runs/{run['id']}/events").json()
        context = signed_in_context(browser, second.url, "owner", viewport=VIEWPORT)
        try:
            page = context.new_page()
            page.set_default_timeout(45_000)
            page.goto(f"/runs/{run['id']}")
            page.wait_for_selector("[data-testid=run-status]:text('completed')")

            resumed = final["resumed"]
            assert resumed["reason"] == "the server restarted" and resumed["attempt"] == 1
            # Where it went on, in the words the runner's message uses: the page must use the same.
            note_event = next(e for e in events if e["type"] == "message" and "resumed" in (e.get("data") or {}))
            where = re.match(r"^run resumed after (.+) \(event (\d+)\)", note_event["message"]).group(1)
            after = resumed["after"]
            if after["kind"] == "step":  # a step inside round N: "step draft of round N of dev"
                assert re.match(r"^step draft of round \d+ of dev$", where), (where, after)
            else:
                assert where == f"{after['kind']} {after['iteration'] + 1} of dev", (where, after)
            # The header, short, with the whole story in its title.
            note = page.get_by_test_id("run-resumed")
            assert note.inner_text() == f"resumed after {where}"
            assert "the server restarted" in note.get_attribute("title") and "superseded" in note.get_attribute("title")
            # Details, with nothing chosen: why, after what, which attempt.
            page.get_by_test_id("run-tab-details").click()
            details = page.get_by_test_id("details-resumed").inner_text()
            assert f"resumed after {where}: the server restarted (resume 1 of 3)" in details

            # Events: the lost attempt's events past the boundary marked, as the API marks them.
            lost = sorted(e["seq"] for e in events if e.get("superseded"))
            assert lost and min(lost) == resumed["from_seq"] + 1, (lost[:3], resumed)
            page.get_by_test_id("run-tab-events").click()
            page.get_by_test_id("event-log").wait_for()
            rows = every_event_row(page)
            marked = {seq for seq, row in rows.items() if row["superseded"]}
            # A row stands for one event (or one turn's streamed output, by its first): marked exactly when it is lost.
            assert marked and marked == {seq for seq in rows if seq in set(lost)}, (sorted(marked), lost)
            assert all("superseded" in rows[seq]["text"] for seq in marked)
            # The resume's row: its seq, its time and all its words, never cut.
            resume = rows[note_event["seq"]]
            assert re.match(r"^\d+ \d\d:\d\d:\d\d\.\d{3} ", resume["text"]), resume
            assert f"run resumed after {where}" in resume["text"] and "the server restarted (resume 1 of 3)" in resume["text"]
            assert not resume["cut"], "the resume's row is cut"

            # The loop went on over the resume: its time counts the work before it (not the time the server was
            # down) and then on, and says so.
            starts = [e for e in events if e["type"] == "step_start" and e["stepId"] == "dev"]
            assert len(starts) == 2 and starts[1]["data"]["started_at"] == starts[0]["timestamp"]
            end = next(e for e in events if e["type"] == "step_end" and e["stepId"] == "dev")
            worked_ms = starts[1]["data"]["carried_s"] * 1000
            span_ms = _ms(note_event["timestamp"]) - _ms(starts[0]["timestamp"])
            assert 0 < worked_ms <= span_ms, (worked_ms, span_ms)
            assert end["durationMs"] >= worked_ms, (end["durationMs"], worked_ms)
            page.locator("[data-testid='node-dev'] .node-title").click()
            assert "it had worked before, not the time no worker ran it" in page.get_by_test_id("step-resumed").inner_text()
            assert end["duration"] in page.get_by_test_id("run-side").inner_text()
        finally:
            context.close()



BIG_ITEMS = 600  # past the big-run page's threshold (frontend/src/run/view/mode.ts: BIG_LOOP)


def test_a_resumed_big_run_says_so_in_its_header(browser):
    env = base_env(**LIVENESS)
    source = (f"version: 1\nname: resumed-big\nsteps:\n  - id: each\n    instructions: go\n"
              f"    loop: {{forEach: {list(range(BIG_ITEMS))}, maxConcurrency: 20}}\n")
    with running_server(env, users=("owner",)) as first, first.client("owner") as client:
        workflow = client.post("/workflows", json={"source": source}).json()
        run = client.post("/runs", json={"workflow_id": workflow["id"], "coordinator": "off",
                                         "script": {"latency": 0.3, "replies": {"each": ["done"]}}}).json()
        deadline = time.monotonic() + 120
        while client.get(f"/runs/{run['id']}").json()["last_seq"] < 200:
            assert time.monotonic() < deadline, "the run did not get under way"
            time.sleep(0.2)
        kill_hard(first.process)
    with server_process(env, first.tokens) as second, second.client("owner") as client:
        final = wait_status(client, run["id"], ("completed",), timeout=240)
        context = signed_in_context(browser, second.url, "owner", viewport=VIEWPORT)
        try:
            page = context.new_page()
            page.set_default_timeout(45_000)
            page.goto(f"/runs/{run['id']}")
            note = page.get_by_test_id("big-run-resumed")
            note.wait_for()
            after = final["resumed"]["after"]
            assert after["kind"] == "item", after
            assert note.inner_text() == f"resumed after item {after['iteration'] + 1} of each"
            assert "the server restarted" in note.get_attribute("title")
        finally:
            context.close()

# Each drawn row of the Events tab: its seq, whether it is marked superseded, its text, and whether its text is cut.
ROWS_NOW = """log => Array.from(log.querySelectorAll('[data-testid=event-row]')).map(r => ({
    seq: Number(r.dataset.seq), superseded: r.dataset.superseded === '1', text: r.innerText, cut: r.scrollWidth > r.clientWidth + 1}))"""
# One screen further down the list, once the rows there are drawn; whether it was at the end already.
SCROLL_ON = """async log => {
    const box = log.closest('.virtual-rows');
    const end = box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
    box.scrollTop += box.clientHeight * 0.8;
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    return end;
}"""


def every_event_row(page) -> dict[int, dict]:
    """Every row of the Events tab, scrolled through from the top (the list draws only the rows in view)."""
    log = page.get_by_test_id("event-log")
    log.evaluate("log => { log.closest('.virtual-rows').scrollTop = 0; }")
    rows: dict[int, dict] = {}
    for _ in range(1000):
        rows.update({row["seq"]: row for row in log.evaluate(ROWS_NOW)})
        if log.evaluate(SCROLL_ON):
            return rows
    raise AssertionError("the events list never reached its end")


def _ms(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp() * 1000

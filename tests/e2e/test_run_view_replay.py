"""The run view survives a reload mid-run (replay by `seq`: every event, none
twice) and replays a finished run from its stored events."""
from __future__ import annotations

import re

from tests.support.browser import api
from tests.support.run_pages import start_polish_run


def applied(page) -> int:
    return int(page.get_by_test_id("run-page").get_attribute("data-applied"))


def wait_all_events(page, run_id: str) -> list[dict]:
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    events = api(page, "GET", f"/runs/{run_id}/events?after=0")
    last = max(e["seq"] for e in events)
    page.wait_for_selector(f"[data-testid=run-page][data-last-seq='{last}']")
    return events


def assert_full_view(page, events: list[dict]) -> None:
    assert sorted(e["seq"] for e in events) == list(range(1, len(events) + 1)), "the server's events have gaps"
    assert applied(page) == len(events), "each event applied exactly once"
    cells = page.locator("[data-testid='iterations-polish'] [data-testid=iteration-cell]")
    assert cells.count() == 4
    verdicts = page.get_by_test_id("verdict")
    assert verdicts.count() == 4
    assert "finished" in verdicts.nth(3).inner_text()
    cumulative = page.get_by_test_id("cumulative-polish").inner_text()
    for text in ("round one", "round two", "round three", "round four"):
        assert text in cumulative
    assert page.get_by_test_id("node-publish").get_by_test_id("node-status").inner_text().startswith("completed")


def test_a_reload_mid_run_still_shows_every_event(page):
    run = start_polish_run(page)
    page.goto(f"/runs/{run['id']}")
    page.locator("[data-testid='iterations-polish'] [data-testid=iteration-cell]").first.wait_for(timeout=20_000)
    assert page.get_by_test_id("run-status").inner_text() in ("running", "queued"), "the run ended before the reload"
    before = applied(page)
    assert before > 0

    page.reload()
    page.get_by_test_id("run-page").wait_for()
    events = wait_all_events(page, run["id"])
    assert_full_view(page, events)
    assert page.get_by_test_id("run-page").get_attribute("data-conn") in ("live", "closed")


def test_a_finished_run_replays_from_stored_events(page):
    run = start_polish_run(page)
    page.goto(f"/runs/{run['id']}")
    wait_all_events(page, run["id"])

    # A fresh visit of the finished run: the same view, from stored events.
    page.goto("/runs")
    page.locator(f"a[href='/runs/{run['id']}']").click()
    page.get_by_test_id("run-page").wait_for()
    events = wait_all_events(page, run["id"])
    assert_full_view(page, events)

    # Metrics per step and iteration.
    page.get_by_role("tab", name="Metrics").click()
    metrics = page.get_by_test_id("metrics")
    metrics.wait_for()
    assert "polish" in metrics.inner_text() and "publish" in metrics.inner_text()


def test_pause_resume_and_stop_from_the_run_view(page):
    run = start_polish_run(page, latency=1.0)
    page.goto(f"/runs/{run['id']}")
    status = page.get_by_test_id("run-status")
    page.wait_for_selector("[data-testid=run-status]:text('running')", timeout=20_000)

    page.get_by_test_id("pause").click()
    page.wait_for_selector("[data-testid=run-status]:text('paused')", timeout=30_000)
    assert page.get_by_test_id("resume").is_enabled()
    page.get_by_test_id("resume").click()
    page.wait_for_selector("[data-testid=run-status]:text('running')", timeout=30_000)
    page.get_by_test_id("stop").click()
    page.wait_for_selector("[data-testid=run-status]:text('cancelled')", timeout=30_000)
    assert status.inner_text() == "cancelled"
    page.get_by_test_id("run-again").wait_for()
    assert page.get_by_test_id("stop").count() == 0


def test_a_dropped_websocket_reconnects_and_replays_from_the_last_seq(page):
    urls: list[str] = []
    state = {"forwarded": 0, "dropped": False}

    def route(ws):
        urls.append(ws.url)
        server = ws.connect_to_server()

        def from_server(message):
            ws.send(message)
            state["forwarded"] += 1
            if not state["dropped"] and state["forwarded"] >= 4:
                state["dropped"] = True
                ws.close()  # the network drops mid-run

        server.on_message(from_server)

    # The events socket only (its URL has a query); the page's view socket (`.../view/`) goes untouched.
    page.route_web_socket(re.compile(r"/ws/runs/[0-9a-fA-F-]+/\?"), route)
    run = start_polish_run(page)
    page.goto(f"/runs/{run['id']}")
    events = wait_all_events(page, run["id"])
    assert state["dropped"], "the socket was never dropped"
    assert len(urls) >= 2, f"no reconnect: {urls}"
    after = int(re.search(r"after=(\d+)", urls[1]).group(1))
    assert after > 0, f"the reconnect did not resume from the last seq: {urls[1]}"
    assert_full_view(page, events)

"""A finished run reads as finished (no "live" dot, controls off), rounds and
iterations count from 1, break reasons read as words, and choosing a node
after an iteration shows the node."""
from __future__ import annotations

from tests.support.browser import api
from tests.support.run_pages import finished_run, start_polish_run


def test_a_finished_run_shows_finished_words_and_one_based_rounds(page):
    run = finished_run(page)
    page.goto(f"/runs/{run['id']}")  # a fresh visit of the finished run
    page.wait_for_selector("[data-testid=run-status]:text('completed')")
    conn = page.get_by_test_id("conn")
    page.wait_for_function("() => document.querySelector('[data-testid=conn]').innerText.includes('finished')")
    assert "live" not in conn.inner_text()
    for b in ("pause", "resume"):
        assert page.get_by_test_id(b).is_disabled()
    # A finished run cannot be stopped: Stop gives way to Run again and Edit and run.
    assert page.get_by_test_id("stop").count() == 0
    assert page.get_by_test_id("run-again").is_enabled() and page.get_by_test_id("edit-and-run").is_enabled()

    verdicts = page.get_by_test_id("verdict")
    verdicts.nth(3).wait_for()
    assert verdicts.first.inner_text().startswith("round 1")
    assert verdicts.nth(3).inner_text().startswith("round 4")
    summary = page.get_by_test_id("loop-summary-polish").inner_text()
    assert "4 rounds" in summary and "judge said done" in summary, summary
    assert "iteration(s)" not in page.get_by_test_id("run-side").inner_text()
    cells = page.locator("[data-testid='iterations-polish'] [data-testid=iteration-cell]")
    assert [cells.nth(i).locator(".iter-n").inner_text() for i in range(4)] == ["1", "2", "3", "4"]

    # An iteration, then a node: the node's details replace the iteration's.
    cells.nth(1).click()
    details = page.get_by_test_id("iteration-details")
    details.wait_for()
    assert "round 2" in details.inner_text()
    page.locator("[data-testid='node-publish'] .node-title").click()
    details.wait_for(state="detached")
    assert "published" in page.get_by_test_id("run-side").inner_text()


def test_the_header_tokens_add_up_while_the_run_goes(page):
    run = start_polish_run(page, latency=1.0)
    page.goto(f"/runs/{run['id']}")
    page.get_by_test_id("verdict").first.wait_for(timeout=20_000)
    assert page.get_by_test_id("run-status").inner_text() == "running", "the run ended too soon for this test"
    figures = page.get_by_test_id("run-figures").inner_text()
    assert " 0 tokens" not in figures, figures
    api(page, "POST", f"/runs/{run['id']}/stop")
    page.wait_for_selector("[data-testid=run-status]:text('cancelled')", timeout=30_000)

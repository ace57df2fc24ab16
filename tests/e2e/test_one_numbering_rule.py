"""One numbering rule in Chromium (docs/format.md, "Numbering"): every label a run shows (its page's strip, Details,
Live, Metrics and Events tabs, the fork dialog, the fork's header, the comparison, the big-run page) names the same
round or item the same way: 1-based words ("round 3", "item 2"), the format's 0-based id beside it where one is shown
(`write.2`, `each[1]`), never another number, never "iteration N"."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.browser import api
from tests.support.run_pages import start_run_of, wait_run_finished

NOT_YET = {"content": "not yet", "result": {"done": False, "reason": "too short"}}
DONE = {"content": "good", "result": {"done": True, "reason": "complete"}}
ROUNDS = """
name: numbering-rounds
agents:
  writer: {description: Writes.}
  judge:
    description: Judges.
    resultSchema:
      type: object
      required: [done]
      properties: {done: {type: boolean}, reason: {type: string}}
steps:
  - id: write
    loop:
      maxIterations: 6
      untilAgent: judge
      steps:
        - id: draft
          agent: writer
          instructions: Write a draft.
"""
ROUNDS_SCRIPT = {"replies": {"draft": ["draft 1", "draft 2", "draft 3", "draft 4"], "judge": [NOT_YET, NOT_YET, NOT_YET, DONE]}}
ITEMS = """
name: numbering-items
agents:
  worker: {description: Works.}
steps:
  - id: each
    agent: worker
    instructions: Handle the item.
    loop: {forEach: ["a", "b", "c"], maxConcurrency: 1}
"""
ITEMS_SCRIPT = {"replies": {"each": ["did a", "did b", "did c"]}}
WIDE_ITEMS = 600


def names(label: str, loop: str, kind: str, n: int) -> None:
    """``label`` names the 0-based ``n`` of ``loop`` as the rule says: the word counted from 1, any id of the loop
    it shows is that one's (or a step inside it), and no "iteration N"."""
    word = f"{kind} {n + 1}"
    assert re.search(rf"\b{word}\b", label, re.IGNORECASE), f"{word!r} not in {label!r}"
    ids = re.findall(rf"\b{re.escape(loop)}(?:\.(\d+)|\[(\d+)\])", label)
    assert all(int(a or b) == n for a, b in ids), f"{label!r} shows an id of {loop} other than its {word}'s"
    assert not re.search(r"\biteration \d", label, re.IGNORECASE), f"{label!r} says iteration N"


def shows_id(label: str, loop: str, kind: str, n: int) -> None:
    expected = f"{loop}[{n}]" if kind == "item" else f"{loop}.{n}"
    assert expected in label, f"{expected!r} not beside the words in {label!r}"


def tab(page, name: str) -> None:
    page.get_by_test_id(f"run-tab-{name}").click()


def test_a_repeat_until_runs_round_3_reads_round_3_with_write_2_beside_it_everywhere(page):
    run = start_run_of(page, ROUNDS, ROUNDS_SCRIPT)
    assert wait_run_finished(page, run["id"])["status"] == "completed"
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')")

    # The strip's cell and the iteration's details.
    cells = page.locator("[data-testid='iterations-write'] [data-testid=iteration-cell]")
    cells.nth(3).wait_for()
    names(cells.nth(2).get_attribute("title"), "write", "round", 2)
    cells.nth(2).click()
    title = page.get_by_test_id("iteration-details-title").inner_text()
    names(title, "write", "round", 2)
    shows_id(title, "write", "round", 2)
    verdict = page.get_by_test_id("iteration-details").get_by_test_id("verdict")
    names(verdict.inner_text(), "write", "round", 2)

    # Live: the loop's verdict rows, and the last output named by where it was written.
    tab(page, "live")
    rows = page.get_by_test_id("run-side").get_by_test_id("verdict")
    rows.nth(3).wait_for()
    names(rows.nth(2).inner_text(), "write", "round", 2)
    names(rows.nth(2).locator(".verdict-round").get_attribute("title"), "write", "round", 2)
    # The loop's output, not its judge's reply after it.
    expect(page.get_by_test_id("live-output")).to_have_text("draft 4")
    place = page.get_by_test_id("live-output-place").inner_text()
    names(place, "write", "round", 3)
    shows_id(place, "write", "round", 3)

    # Metrics: the judge's row and the loop's table.
    tab(page, "metrics")
    judge = page.locator("tr", has_text="the judge of round 3")
    judge.wait_for()
    names(judge.inner_text(), "write", "round", 2)
    shows_id(judge.inner_text(), "write", "round", 2)
    row = page.get_by_test_id("metrics").locator("tr", has_text="write.2").last
    names(row.inner_text(), "write", "round", 2)

    # Events: the judge's verdict on round 3.
    tab(page, "events")
    verdicts = page.get_by_test_id("event-log").locator("li[data-type=judge_verdict]")
    verdicts.nth(2).wait_for()
    names(verdicts.nth(2).inner_text(), "write", "round", 2)

    # The fork dialog from round 3's verdict row, without opening the round on the strip.
    tab(page, "live")
    page.get_by_test_id("fork-verdict-write.2").click()
    dialog = page.get_by_test_id("fork-dialog")
    dialog.wait_for()
    names(dialog.get_by_role("heading").inner_text(), "write", "round", 2)
    assert dialog.get_by_test_id("fork-at-id").inner_text() == "write.2"
    dialog.get_by_test_id("fork-start").click()
    page.wait_for_url(lambda url: "/runs/" in url and run["id"] not in url)
    fork_id = page.url.rstrip("/").split("/runs/")[1].split("/")[0]
    fork = wait_run_finished(page, fork_id)
    assert fork["fork_point"]["iteration"] == 2  # the API's field is 0-based: round 3
    header = page.get_by_test_id("fork-parent")
    header.wait_for()
    names(header.inner_text(), "write", "round", 2)

    # The comparison of the two.
    page.goto(f"/runs/{run['id']}/compare/{fork_id}")
    page.get_by_test_id("run-compare").wait_for()
    row = page.locator("tr[data-key='write.2']")
    names(row.locator("th").inner_text(), "write", "round", 2)
    shows_id(row.locator("th").inner_text(), "write", "round", 2)
    names(page.locator("tr[data-key='write.2.draft'] th").inner_text(), "write", "round", 2)


def test_a_foreach_runs_item_2_reads_item_2_with_each_1_beside_it_everywhere(page):
    run = start_run_of(page, ITEMS, ITEMS_SCRIPT)
    assert wait_run_finished(page, run["id"])["status"] == "completed"
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')")

    cells = page.locator("[data-testid='iterations-each'] [data-testid=iteration-cell]")
    cells.nth(2).wait_for()
    strip_words = cells.nth(1).get_attribute("title")
    names(strip_words, "each", "item", 1)
    assert 'value "b"' in strip_words  # the item's value is its value, not a second number
    cells.nth(1).click()
    title = page.get_by_test_id("iteration-details-title").inner_text()
    names(title, "each", "item", 1)
    shows_id(title, "each", "item", 1)

    # The loop's Details: a row per item, each with its one "Re-run from here".
    page.locator("[data-testid='node-each'] .node-title").click()
    rows = page.get_by_test_id("iteration-row")
    rows.nth(2).wait_for()
    names(rows.nth(1).inner_text(), "each", "item", 1)
    shows_id(rows.nth(1).inner_text(), "each", "item", 1)
    assert rows.nth(1).get_by_role("button", name="Re-run from here").count() == 1

    # Live: the result table lists each item by its words and its id.
    tab(page, "live")
    table = page.get_by_test_id("foreach-results-each")
    table.locator("summary").click()
    result_row = table.get_by_test_id("foreach-result-row").nth(1)
    names(result_row.inner_text(), "each", "item", 1)
    shows_id(result_row.inner_text(), "each", "item", 1)

    tab(page, "metrics")
    row = page.get_by_test_id("metrics").locator("tr", has_text="each[1]").last
    row.wait_for()
    names(row.inner_text(), "each", "item", 1)

    page.locator("[data-testid='node-each'] .node-title").click()
    page.get_by_test_id("fork-row-each.1").click()
    dialog = page.get_by_test_id("fork-dialog")
    dialog.wait_for()
    names(dialog.get_by_role("heading").inner_text(), "each", "item", 1)
    assert dialog.get_by_test_id("fork-at-id").inner_text() == "each[1]"
    dialog.get_by_test_id("fork-start").click()
    page.wait_for_url(lambda url: "/runs/" in url and run["id"] not in url)
    fork_id = page.url.rstrip("/").split("/runs/")[1].split("/")[0]
    assert wait_run_finished(page, fork_id)["fork_point"]["iteration"] == 1  # the API's field is 0-based: item 2
    names(page.get_by_test_id("fork-parent").inner_text(), "each", "item", 1)

    page.goto(f"/runs/{run['id']}/compare/{fork_id}")
    page.get_by_test_id("run-compare").wait_for()
    th = page.locator("tr[data-key='each[1]'] th").inner_text()
    names(th, "each", "item", 1)
    shows_id(th, "each", "item", 1)


def test_the_big_run_page_names_an_item_as_its_failed_list_its_details_and_its_events_do(page):
    source = ("version: 1\nname: numbering-wide\nsteps:\n  - id: each\n    instructions: go\n"
              f"    loop: {{forEach: {list(range(WIDE_ITEMS))}, maxConcurrency: 50}}\n")
    script = {"latency": 0.01, "replies": {"each": [f"done {i}" for i in range(9)] + [{"error": "broken item"}]}}
    run = start_run_of(page, source, script, {"on_iteration_error": "skip"})
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=big-run][data-status=completed]", timeout=120_000)

    failed = page.get_by_test_id("failed-item").first
    index = int(failed.get_attribute("data-index"))
    names(failed.inner_text(), "each", "item", index)
    shows_id(failed.inner_text(), "each", "item", index)
    failed.click()
    details = page.get_by_test_id("item-details")
    details.wait_for()
    assert details.get_attribute("data-index") == str(index)
    names(details.locator("h4").inner_text(), "each", "item", index)
    assert page.get_by_test_id("item-id").inner_text() == f"each[{index}]"
    # The item's value is shown as its value, under its own heading: never as the item's number.
    assert page.get_by_test_id("item-value").inner_text().strip() == str(index)
    assert "Its value" in details.inner_text()

    # The run's messages about that item say the same.
    skipped = [e for e in api(page, "GET", f"/runs/{run['id']}/events?type=message&limit=5000")
               if f"each[{index}]" in (e.get("message") or "")]
    assert skipped, "the skip policy says which item it skipped"
    names(skipped[0]["message"], "each", "item", index)

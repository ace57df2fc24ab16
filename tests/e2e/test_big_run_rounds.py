"""The big-run page's rounds chart in Chromium: a forEach of 2,000 items draws at most 500 points whose
table adds up to the items, live as the run goes; a judged repeat-until of 520 rounds plots the judge's score
and its verdicts."""
from __future__ import annotations

import json

from tests.support.run_pages import start_run_of

ITEMS = 2000
ROUNDS = 520


def table_rows(page, loop: str) -> list[int]:
    page.get_by_test_id(f"rounds-table-{loop}").locator("summary").click()
    rows = page.get_by_test_id(f"rounds-table-{loop}").get_by_test_id("rounds-row")
    rows.first.wait_for()
    return [int(n) for n in rows.evaluate_all("rs => rs.map(r => r.dataset.rounds)")]


def test_a_foreach_of_thousands_of_items_is_charted_in_at_most_500_points(page):
    source = ("version: 1\nname: wide\nsteps:\n  - id: each\n    instructions: go\n"
              f"    loop: {{forEach: {list(range(ITEMS))}, maxConcurrency: 50}}\n")
    script = {"latency": 0.05, "replies": {"each": [f"done {i}" for i in range(9)] + [{"error": "broken item"}]}}
    run = start_run_of(page, source, script, {"on_iteration_error": "skip"})
    page.goto(f"/runs/{run['id']}")
    chart = page.get_by_test_id("rounds-loop-each")
    chart.wait_for(timeout=60_000)
    first = int(chart.get_attribute("data-rounds"))
    page.wait_for_selector("[data-testid=big-run][data-status=completed]", timeout=90_000)
    # Live: it follows the run to its end.
    page.wait_for_selector(f"[data-testid=rounds-loop-each][data-rounds='{ITEMS}']")
    assert 0 < first <= ITEMS
    assert chart.get_attribute("data-bucket") == "4"  # 2,000 items at four a point: 500 points
    assert page.get_by_test_id("rounds-chart-each").locator("canvas").count() >= 1
    assert "each point is 4 items" in chart.inner_text()

    rows = table_rows(page, "each")
    assert 0 < len(rows) <= 500 and sum(rows) == ITEMS, (len(rows), sum(rows))
    # The failed items are the legend's error marks, as many as the grid counts.
    failed = json.loads(page.get_by_test_id("item-grid-each").get_attribute("data-counts")).get("failed", 0)
    assert failed > 0
    assert f"({failed:,})" in page.get_by_test_id("rounds-legend").locator(".rounds-mark-error").inner_text()

    # The picker switches the metric; tokens are there for every item.
    picker = page.get_by_test_id("rounds-metric-each")
    picker.select_option("tokens")
    assert page.get_by_test_id("rounds-missing").count() == 0
    values = page.get_by_test_id("rounds-table-each").get_by_test_id("rounds-value").all_inner_texts()
    assert values and all(v != "—" for v in values), values[:5]
    assert page.evaluate("document.getElementsByTagName('*').length") < 5000


def test_a_judged_loop_plots_the_judges_score_and_verdicts_per_round(page):
    source = ("version: 1\nname: judged\nagents:\n  w: {description: works}\n  judge:\n    description: judges\n"
              "    resultSchema: {type: object, required: [done], properties: {done: {type: boolean}, "
              "score: {type: number}}}\n"
              f"steps:\n  - id: polish\n    agent: w\n    loop: {{maxIterations: {ROUNDS}, untilAgent: judge}}\n")
    verdicts = [{"content": "v", "result": {"done": False, "score": s}} for s in (0.2, 0.4, 0.6, 0.8)]
    run = start_run_of(page, source, {"latency": 0, "replies": {"polish": ["again"], "judge": verdicts}})
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=big-run][data-status=failed]", timeout=120_000)
    page.wait_for_selector(f"[data-testid=rounds-loop-polish][data-rounds='{ROUNDS}']")
    assert page.get_by_test_id("rounds-loop-polish").get_attribute("data-bucket") == "2"

    page.get_by_test_id("rounds-metric-polish").select_option(label="Judge: score")
    rows = table_rows(page, "polish")
    assert len(rows) == ROUNDS // 2 and sum(rows) == ROUNDS
    values = page.get_by_test_id("rounds-table-polish").get_by_test_id("rounds-value").all_inner_texts()
    assert values[0] == "0.3 (0.2 to 0.4)" and values[1] == "0.7 (0.6 to 0.8)", values[:3]
    marks = page.get_by_test_id("rounds-table-polish").get_by_test_id("rounds-marks").all_inner_texts()
    assert marks[0] == "2 not done", marks[:3]

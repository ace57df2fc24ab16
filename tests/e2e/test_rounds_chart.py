"""The run page's Rounds tab: a chart per loop of its rounds (time, tokens, cost, and the judge's
score), the judge's verdicts as marks with a legend in words, the same points as a table, and
rounds arriving live while the run goes."""
from __future__ import annotations

from tests.support.browser import api
from tests.support.servers import REPO

AXE = REPO / "frontend" / "node_modules" / "axe-core" / "axe.min.js"

WORKFLOW = """\
name: scored-polish
description: Four rounds of polishing, each scored by the judge.
agents:
  writer:
    description: Writes and rewrites the text.
  judge:
    description: Scores the text and decides whether it is done.
    resultSchema:
      type: object
      required: [done]
      properties:
        done: {type: boolean}
        reason: {type: string}
        score: {type: number}
steps:
  - id: polish
    loop:
      maxIterations: 4
      untilAgent: judge
      steps:
        - id: write
          agent: writer
          instructions: Improve the text.
"""

SCRIPT = """\
latency: LATENCY
replies:
  write: ["round one", "round two", "round three", "round four"]
  judge:
    - {content: "no", result: {done: false, reason: "thin", score: 0.2}}
    - {content: "no", result: {done: false, reason: "closer", score: 0.5}}
    - {content: "no", result: {done: false, reason: "nearly", score: 0.7}}
    - {content: "yes", result: {done: true, reason: "good", score: 0.9}}
"""


def start_run(page, latency: float) -> dict:
    page.goto("/runs")  # any page of the app: gives the CSRF cookie
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    assert wf["valid"], wf["errors"]
    return api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated",
                                       "script": SCRIPT.replace("LATENCY", str(latency))})


def wait_completed(page, timeout: float = 30_000) -> None:
    """Waits for the run to end; a run that failed says why instead of timing out."""
    page.wait_for_function("() => ['completed', 'partial', 'failed', 'cancelled'].includes("
                           "document.querySelector('[data-testid=run-status]')?.innerText)", timeout=timeout)
    status = page.get_by_test_id("run-status").inner_text()
    assert status == "completed", f"the run ended {status}: {page.get_by_test_id('run-side').inner_text()[:300]}"


def open_rounds(page, loop: str = "polish") -> None:
    page.get_by_test_id("run-tab-rounds").click()
    page.get_by_test_id(f"rounds-loop-{loop}").wait_for()


def table_column(page, testid: str) -> list[str]:
    return page.locator(f"[data-testid=rounds-table-polish] [data-testid={testid}]").all_inner_texts()


def test_a_finished_judge_loop_charts_its_rounds_and_the_judges_scores(page):
    run = start_run(page, latency=0.05)
    page.goto(f"/runs/{run['id']}")
    wait_completed(page)
    last = max(e["seq"] for e in api(page, "GET", f"/runs/{run['id']}/events?after=0"))
    page.wait_for_selector(f"[data-testid=run-page][data-last-seq='{last}']")
    open_rounds(page)

    loop = page.get_by_test_id("rounds-loop-polish")
    assert loop.get_attribute("data-rounds") == "4"
    assert loop.get_attribute("data-bucket") == "1"
    chart = page.get_by_test_id("rounds-chart-polish")
    assert chart.locator("canvas").count() == 1
    assert chart.bounding_box()["width"] > 100

    # The table lists the rounds, 1-based, with the judge's verdict in words.
    page.locator("[data-testid=rounds-table-polish] summary").click()
    rows = page.locator("[data-testid=rounds-table-polish] [data-testid=rounds-row]")
    rows.nth(3).wait_for()
    assert rows.count() == 4
    assert [r.split("\t")[0].strip() for r in rows.all_inner_texts()] == ["Round 1", "Round 2", "Round 3", "Round 4"]
    assert table_column(page, "rounds-marks") == ["not done", "not done", "not done", "done"]
    assert all(v.endswith(" s") for v in table_column(page, "rounds-value")), table_column(page, "rounds-value")

    # The judge's score is found in its results and can be plotted; the table follows.
    picker = page.get_by_test_id("rounds-metric-polish")
    labels = picker.locator("option").all_inner_texts()
    assert "Judge: score" in labels and "Tokens" in labels, labels
    assert "Judge: done" not in labels, "a boolean is not a metric"
    picker.select_option(label="Judge: score")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=rounds-table-polish] [data-testid=rounds-value]')]"
                           ".map((c) => c.innerText).join(',') === '0.2,0.5,0.7,0.9'")
    assert chart.locator("canvas").count() == 1

    # Tokens: every round used some (the writer's and the judge's turns).
    picker.select_option(label="Tokens")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=rounds-table-polish] [data-testid=rounds-value]')]"
                           ".every((c) => /^[1-9][0-9,]*$/.test(c.innerText))")

    # The marks' legend says what each shape means, in words, with counts.
    legend = page.get_by_test_id("rounds-legend").inner_text()
    assert "judge said done (1)" in legend and "judge said not done (3)" in legend, legend
    assert "▲" in legend and "●" in legend

    # axe-core finds nothing serious in the panel, in the light theme and the dark one.
    for theme in ("light", "dark"):
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
        page.wait_for_timeout(200)
        found = panel_violations(page)
        assert not found, f"{theme} theme: {found}"
    assert chart.locator("canvas").count() == 1, "a new theme redraws the chart, it does not add one"


def panel_violations(page) -> list[str]:
    """axe-core's serious and critical findings within the rounds panel (the rest of the page is audited elsewhere)."""
    assert AXE.exists(), f"{AXE} is missing: `npm ci` in frontend/ installs axe-core"
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated, not added as a script tag: the page's Content-Security-Policy refuses inline scripts.
        page.evaluate(AXE.read_text() + "\n;undefined")
    found = page.evaluate(
        "async () => (await axe.run(document.querySelector('[data-testid=rounds-panel]'), {resultTypes: ['violations']}))"
        ".violations.filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => `${v.id}: ${v.help} at ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)"
    )
    return found


def test_rounds_arrive_in_the_chart_while_the_loop_runs(page):
    run = start_run(page, latency=0.6)
    page.goto(f"/runs/{run['id']}")
    page.get_by_test_id("run-side").wait_for()
    open_rounds(page)
    loop = page.get_by_test_id("rounds-loop-polish")
    page.wait_for_function("() => Number(document.querySelector('[data-testid=rounds-loop-polish]').dataset.rounds) >= 1",
                           timeout=20_000)
    early = int(loop.get_attribute("data-rounds"))
    assert page.get_by_test_id("run-status").inner_text() == "running", "the run ended too soon for this test"
    assert early < 4
    # The chart takes new rounds as data: the canvas drawn for the first round is the one that shows the last.
    page.evaluate("document.querySelector('[data-testid=rounds-chart-polish] canvas').dataset.first = 'yes'")
    page.wait_for_selector("[data-testid=rounds-loop-polish][data-rounds='4']", timeout=30_000)
    assert page.locator("[data-testid=rounds-chart-polish] canvas[data-first=yes]").count() == 1
    wait_completed(page)
    page.locator("[data-testid=rounds-table-polish] summary").click()
    page.get_by_test_id("rounds-metric-polish").select_option(label="Judge: score")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=rounds-table-polish] [data-testid=rounds-value]')]"
                           ".map((c) => c.innerText).join(',') === '0.2,0.5,0.7,0.9'")


ITEMS = 1_200


def test_a_wide_foreach_is_charted_in_buckets_not_item_by_item(page):
    page.goto("/runs")
    source = ("version: 1\nname: wide-rounds\nsteps:\n  - id: each\n    instructions: go\n"
              f"    loop: {{forEach: {list(range(ITEMS))}, maxConcurrency: 50}}\n")
    # Every tenth reply fails; the run skips failed items and goes on.
    script = {"latency": 0.01, "replies": {"each": [f"done {i}" for i in range(9)] + [{"error": "broken item"}]}}
    wf = api(page, "POST", "/workflows", {"source": source})
    run = api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": script,
                                      "policies": {"on_iteration_error": "skip"}})
    # ?raw=1: the page that folds every event (a run this wide gets the big-run page otherwise).
    page.goto(f"/runs/{run['id']}?raw=1")
    wait_completed(page, timeout=90_000)
    open_rounds(page, "each")
    loop = page.get_by_test_id("rounds-loop-each")
    page.wait_for_selector(f"[data-testid=rounds-loop-each][data-rounds='{ITEMS}']", timeout=30_000)
    assert loop.get_attribute("data-bucket") == "3"
    assert "each point is 3 items" in loop.locator("h4").inner_text()

    page.locator("[data-testid=rounds-table-each] summary").click()
    rows = page.locator("[data-testid=rounds-table-each] [data-testid=rounds-row]")
    rows.nth(399).wait_for()
    assert rows.count() == ITEMS // 3
    assert rows.first.locator("th").inner_text() == "Items 1–3"  # noqa: RUF001  the page's own en dash
    assert rows.last.locator("th").inner_text() == f"Items {ITEMS - 2:,}–{ITEMS:,}"  # noqa: RUF001  the page's own en dash
    # Failed items are marked as errors; the buckets' counts add up to the run's failures.
    ends = api(page, "GET", f"/runs/{run['id']}/events?type=iteration_end&limit=5000")
    assert len(ends) == ITEMS
    expected = sum(1 for e in ends if e["data"]["status"] == "failed")
    assert expected > 0, "the script should fail some items"
    marks = page.locator("[data-testid=rounds-table-each] [data-testid=rounds-marks]").all_inner_texts()
    failed = sum(int(m.split()[0].replace(",", "")) for m in marks if m)
    assert failed == expected, marks[:20]
    assert f"judge failed open, or the round failed ({expected:,})" in page.get_by_test_id("rounds-legend").inner_text()
    # One canvas for the whole loop: nothing is drawn per item.
    assert page.locator("[data-testid=rounds-chart-each] canvas").count() == 1

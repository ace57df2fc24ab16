"""A forEach step on the run page reads as zenflow's runner gives it: its output is the last item that completed
(in either outputMode), and its result lists every item (id, value, status, output) as
`steps.<id>.result.iterations`, which a later step can read."""
from __future__ import annotations

from tests.support.browser import api

WORKFLOW = """\
name: fan-out-table
steps:
  - id: each
    instructions: "Handle {{ item }}."
    loop: {forEach: [alpha, beta, gamma], maxConcurrency: 2, outputMode: cumulative}
  - id: sum
    dependsOn: [each]
    condition: "steps.each.result.iterations[2].content == 'done gamma'"
    instructions: "Sum up."
"""
SCRIPT = {"replies": {"each[0]": ["done alpha"], "each[1]": ["done beta"], "each[2]": ["done gamma"], "sum": ["total"]}}


def test_a_foreach_shows_its_last_items_output_and_a_table_of_every_item(page):
    page.goto("/runs")  # any page of the app: gives the CSRF cookie
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    assert wf["valid"], wf["errors"]
    run = api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": SCRIPT})
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)

    assert "the last item that completed" in page.get_by_test_id("loop-output-label").inner_text()
    assert page.get_by_test_id("cumulative-each").inner_text().strip() == "done gamma"

    table = page.get_by_test_id("foreach-results-each")
    table.locator("summary").click()
    rows = table.get_by_test_id("foreach-result-row")
    assert rows.count() == 3
    cells = [[c.strip() for c in rows.nth(i).locator("td").all_inner_texts()] for i in range(3)]
    assert cells == [["item 1", "each[0]", "alpha", "completed", "done alpha"], ["item 2", "each[1]", "beta", "completed", "done beta"],
                     ["item 3", "each[2]", "gamma", "completed", "done gamma"]]
    # The same result drove the condition downstream: sum ran.
    assert page.locator("[data-testid='node-sum'] [data-testid=node-status]").inner_text().startswith("completed")

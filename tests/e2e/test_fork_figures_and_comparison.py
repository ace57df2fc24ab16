"""A fork and its parent in Chromium: the fork's header counts its own time, tokens and cost and says what it
inherited apart; the comparison marks the inherited rounds and the round the fork began at, and never says the two
runs agree on everything while their rounds' tokens differ."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.browser import api
from tests.support.documents import judge_loop
from tests.support.run_pages import wait_run_finished

NOT_YET = {"content": "not yet", "result": {"done": False, "reason": "too short"}}
DONE = {"content": "good", "result": {"done": True, "reason": "complete"}}
REPLIES = {"draft": ["draft 1", "draft 2", "draft 3", "draft 4"], "judge": [NOT_YET, NOT_YET, NOT_YET, DONE]}


def test_a_forks_header_and_comparison_tell_its_own_work_from_what_it_inherited(page):
    page.goto("/runs")
    workflow = api(page, "POST", "/workflows", {"source": judge_loop("fork-figures", 6)})
    parent = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated",
                                         "script": {"tokens": {"prompt": 10, "completion": 5}, "replies": REPLIES}})
    assert wait_run_finished(page, parent["id"])["status"] == "completed"
    # The same replies from round 3 on, each turn four times the tokens: the same outcome at another price.
    fork = api(page, "POST", f"/runs/{parent['id']}/fork", {"at": {"step": "dev", "iteration": 2},
                                                            "script": {"tokens": {"prompt": 40, "completion": 20}, "replies": REPLIES}})
    fork = wait_run_finished(page, fork["id"])
    assert fork["status"] == "completed", fork["reason"]
    events = api(page, "GET", f"/runs/{fork['id']}/events")
    inherited = sum(e["tokens"]["total"] for e in events if e.get("inherited") and e["type"] == "agent_turn" and e.get("tokens"))
    assert 0 < inherited < fork["tokens"]["total"]

    page.goto(f"/runs/{fork['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')")
    # Once the events are in (what it inherited is counted from them): its own tokens, and the inherited apart.
    apart = page.get_by_test_id("run-inherited")
    expect(apart).to_contain_text(f"inherited: 2 rounds · {inherited:,} tokens")
    assert "this fork's own" in apart.get_attribute("title")
    own = fork["tokens"]["total"] - inherited
    expect(page.get_by_test_id("run-figures")).to_contain_text(f"· {own:,} tokens")
    apart = apart.inner_text()
    assert re.search(r"\d+(\.\d+)? ?(ms|s) of the parent's time", apart), apart

    page.get_by_test_id("compare-with-parent").get_by_role("link").click()
    page.get_by_test_id("run-compare").wait_for()
    summary = page.get_by_test_id("compare-diverged").inner_text()
    assert "agree on every step and iteration" not in summary, summary
    assert "tokens or cost differ at" in summary, summary
    assert "Run B is a fork of the other: it began at dev.2" in page.get_by_test_id("compare-fork-note").inner_text()
    began = page.locator("tr[data-key='dev.2']")
    assert "run B (the fork) began here" in began.get_by_test_id("compare-fork-began").inner_text()
    # Rounds 1 and 2 of the fork were copied from the parent: marked on B's side only; round 3 on was run again.
    for key in ("dev.0", "dev.1"):
        cells = page.locator(f"tr[data-key='{key}'] td")
        assert cells.nth(1).get_by_test_id("compare-inherited").count() == 1, key
        assert cells.nth(0).get_by_test_id("compare-inherited").count() == 0, key
    assert began.get_by_test_id("compare-inherited").count() == 0
    assert "tokens or cost differ" in page.locator("tr[data-key='dev.2.draft']").inner_text()

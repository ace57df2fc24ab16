"""Running again: the run dialog remembers the last script per workflow, a finished run offers "Run again"
(same settings, one click) and "Edit and run" (the dialog filled in from it), and the dialog says which
providers have a key, linking to the account page where one is missing."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.browser import api, open_saved_workflow
from tests.support.editor_page import type_script

WORKFLOW = "name: again\nsteps:\n  - id: hello\n    instructions: Say hello.\n"
SCRIPT = "latency: 0\nreplies:\n  hello: ['custom reply 42']\n"


def open_saved(page) -> int:
    wf = open_saved_workflow(page, WORKFLOW)
    return wf["id"]


def test_the_script_is_remembered_and_a_finished_run_runs_again_with_it(page):
    wid = open_saved(page)
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    type_script(page, SCRIPT)
    page.get_by_test_id("run-start").click()
    page.wait_for_url("**/runs/*")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    first = page.url.rsplit("/", 1)[1]

    page.get_by_test_id("run-again").click()
    page.wait_for_function(f"() => !location.pathname.endsWith({first!r}) && location.pathname.startsWith('/runs/')")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    second = page.url.rsplit("/", 1)[1]
    runs = api(page, "GET", f"/runs?workflow={wid}")
    assert {r["id"] for r in runs} == {first, second}
    again = api(page, "GET", f"/runs/{second}")
    assert again["script"]["replies"]["hello"] == ["custom reply 42"]

    # The dialog opened from the editor again keeps the script that was typed.
    page.goto(f"/workflows/{wid}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=run-script]').innerText.includes('custom reply 42')")


def test_edit_and_run_opens_the_dialog_filled_in_from_that_run(page):
    wid = open_saved(page)
    page.goto("/runs")
    run = api(page, "POST", "/runs", {"workflow_id": wid, "provider": "simulated", "script": SCRIPT.replace("42", "77"),
                                       "budgets": {"max_steps": 9}})
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.get_by_test_id("edit-and-run").click()
    page.get_by_test_id("run-dialog").wait_for()
    page.locator("[data-testid=run-settings-from]", has_text="that run").wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=run-script]').innerText.includes('custom reply 77')")
    assert page.locator(".grid4 input").nth(3).input_value() == "9"


def test_the_dialog_says_which_providers_lack_a_key_and_links_to_the_account_page(page):
    open_saved(page)
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=run-provider] option')].some((o) => o.textContent.includes('no key yet'))")
    page.get_by_test_id("run-provider").select_option("openai")
    banner = page.get_by_test_id("run-missing-key")
    banner.wait_for()
    assert banner.locator("a[href='/account/']").count() == 1
    assert page.get_by_test_id("run-start").is_disabled()
    page.get_by_test_id("run-provider").select_option("simulated")
    assert page.get_by_test_id("run-missing-key").count() == 0
    assert page.get_by_test_id("run-start").is_enabled()


def test_one_model_for_every_agent_is_asked_said_and_kept_by_run_again(page):
    wid = open_saved(page)
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    override = page.get_by_test_id("run-model-override")
    assert override.is_disabled()  # nothing to use for every agent until a model is named
    page.get_by_placeholder("agent or provider default").fill("gpt-4o-mini")
    override.check()
    page.get_by_test_id("run-start").click()
    page.wait_for_url("**/runs/*")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    page.locator("[data-testid=run-model-override]", has_text="every agent on gpt-4o-mini").wait_for()
    first = page.url.rsplit("/", 1)[1]
    events = api(page, "GET", f"/runs/{first}/events")
    assert {e["data"]["model"] for e in events if e["type"] == "agent_turn" and e["data"]["phase"] == "request"} == {"gpt-4o-mini"}
    # A simulated run spent nothing: the price of its tokens on gpt-4o-mini reads as an estimate, never as money spent.
    record = api(page, "GET", f"/runs/{first}")
    assert record["provider"] == "simulated" and record["cost_usd"] > 0, record
    cost = page.get_by_test_id("run-figures").get_by_test_id("run-cost")
    expect(cost).to_have_text(re.compile(rf"^\s*·\s*≈\${record['cost_usd']:.4f} if real\s*$"))
    assert "nothing was spent" in cost.get_attribute("title")

    page.get_by_test_id("run-again").click()
    page.wait_for_function(f"() => !location.pathname.endsWith({first!r}) && location.pathname.startsWith('/runs/')")
    second = page.url.rsplit("/", 1)[1]
    assert api(page, "GET", f"/runs/{second}")["model_override"] is True
    assert len(api(page, "GET", f"/runs?workflow={wid}")) == 2

"""Searching and filtering the workflows and runs lists in the browser: the server answers each search,
the filters live in the address (a reload keeps them), an empty result offers to clear them, and
"Load more" brings the next page.

The session's server is shared with every other e2e test, so each test names its rows with a tag of
its own and searches by it.
"""
from __future__ import annotations

import time
import uuid

from playwright.sync_api import expect

from tests.support.browser import api

VALID = "name: {name}\nsteps:\n  - id: hello\n    instructions: Say hello.\n"
# A draft with errors (a dependency on a step that does not exist): saved, listed as not valid.
INVALID = "name: {name}\nsteps:\n  - id: hello\n    instructions: Say hello.\n    dependsOn: [ghost]\n"
DONE = {"latency": 0, "replies": {"hello": ["hi"]}}
FAILS = {"latency": 0, "replies": {"hello": [{"error": "upstream 503"}]}}


def tag() -> str:
    return "t" + uuid.uuid4().hex[:8]


def settled(page, address_ends: str) -> None:
    """Waits until the address holds the filters (the search box asks after a pause) and the rows drawn are theirs."""
    page.wait_for_url(lambda url: url.endswith(address_ends))
    expect(page.locator(".page[data-list]")).to_have_attribute("data-list", "idle")


def workflow_names(page) -> list[str]:
    return [n.strip() for n in page.get_by_test_id("workflow-table").locator("tbody td.cell-name").all_inner_texts()]


def run_names(page) -> list[str]:
    return [n.split("\n")[0].strip() for n in page.get_by_test_id("run-table").locator("tbody td.cell-name").all_inner_texts()]


def finished(page, run_id: str) -> dict:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        run = api(page, "GET", f"/runs/{run_id}")
        if run["status"] in ("completed", "partial", "failed", "cancelled"):
            return run
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} did not finish")


def test_the_workflows_list_searches_filters_and_keeps_it_over_a_reload(page):
    t = tag()
    page.goto("/")
    for name, text in ((f"{t} Review nightly", VALID), (f"{t} Review weekly", VALID), (f"{t} deploy draft", INVALID)):
        saved = api(page, "POST", "/workflows", {"source": text.format(name=name)})
        assert saved["valid"] is (text is VALID)
    page.reload()

    search = page.get_by_test_id("workflows-search")
    rows = page.get_by_test_id("workflow-table").locator("tbody td.cell-name")
    search.fill(t)
    settled(page, f"/?q={t}")
    expect(rows).to_have_count(3)
    search.fill(f"{t} REVIEW")
    settled(page, f"/?q={t}+REVIEW")
    assert sorted(workflow_names(page)) == [f"{t} Review nightly", f"{t} Review weekly"]

    # A filter chosen while the search box still waits to ask: both hold.
    search.fill(t)
    page.get_by_test_id("workflows-valid-filter").select_option("invalid")
    settled(page, f"/?q={t}&valid=invalid")
    assert workflow_names(page) == [f"{t} deploy draft"]
    assert page.get_by_test_id("workflows-count").inner_text() == "1 of 1"

    # The address holds the search: a reload shows the same list with the same controls.
    page.reload()
    settled(page, f"/?q={t}&valid=invalid")
    assert workflow_names(page) == [f"{t} deploy draft"]
    expect(page.get_by_test_id("workflows-search")).to_have_value(t)
    expect(page.get_by_test_id("workflows-valid-filter")).to_have_value("invalid")

    page.get_by_test_id("workflows-updated-filter").select_option("today")
    settled(page, f"/?q={t}&valid=invalid&updated=today")
    assert workflow_names(page) == [f"{t} deploy draft"]
    page.get_by_test_id("workflows-valid-filter").select_option("valid")
    settled(page, f"/?q={t}&valid=valid&updated=today")
    assert sorted(workflow_names(page)) == [f"{t} Review nightly", f"{t} Review weekly"]

    # Typed slowly, the list is asked again at each pause: the box keeps its focus and every letter.
    search.fill(t)
    search.press_sequentially(" nomatch", delay=260)
    settled(page, f"/?q={t}+nomatch&valid=valid&updated=today")
    expect(search).to_have_value(f"{t} nomatch")
    assert page.evaluate("() => document.activeElement?.dataset.testid") == "workflows-search"

    # Nothing matches: the page says so and offers to clear the filters.
    expect(page.get_by_test_id("workflows-no-match")).to_contain_text("No workflows match")
    assert page.get_by_test_id("workflow-table").count() == 0
    page.get_by_test_id("clear-filters-empty").click()
    page.wait_for_url(lambda url: "?" not in url)
    expect(page.get_by_test_id("workflows-search")).to_have_value("")
    expect(page.get_by_test_id("workflows-valid-filter")).to_have_value("all")
    expect(page.get_by_test_id("workflow-table")).to_be_visible()


def test_load_more_brings_the_next_page_of_workflows(page):
    t = tag()
    page.goto("/")
    for i in range(53):
        api(page, "POST", "/workflows", {"document": {"name": f"{t} w{i:02}", "steps": [{"id": "a", "instructions": "Go."}]}})
    page.goto(f"/?q={t}")
    settled(page, f"/?q={t}")
    rows = page.get_by_test_id("workflow-table").locator("tbody td.cell-name")
    expect(rows).to_have_count(50)
    assert page.get_by_test_id("workflows-count").inner_text() == "50 of 53"
    page.get_by_test_id("load-more").click()
    expect(rows).to_have_count(53)
    names = workflow_names(page)
    assert len(set(names)) == 53 and set(names) == {f"{t} w{i:02}" for i in range(53)}
    expect(page.get_by_test_id("load-more")).to_have_count(0)


def test_the_runs_list_filters_by_workflow_status_provider_and_date_and_keeps_it_over_a_reload(page):
    t = tag()
    page.goto("/runs")
    review = api(page, "POST", "/workflows", {"source": VALID.format(name=f"{t} Nightly review")})
    deploy = api(page, "POST", "/workflows", {"source": VALID.format(name=f"{t} deploy")})
    made = [api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": script})["id"]
            for wf, script in ((review, DONE), (review, FAILS), (deploy, DONE), (deploy, FAILS), (deploy, DONE))]
    statuses = [finished(page, run_id)["status"] for run_id in made]
    assert statuses == ["completed", "failed", "completed", "failed", "completed"]
    page.reload()

    rows = page.get_by_test_id("run-table").locator("tbody td.cell-name")
    pills = page.get_by_test_id("run-table").locator("tbody .status-pill")
    search = page.get_by_test_id("runs-search")
    search.fill(t)
    settled(page, f"/runs?q={t}")
    expect(rows).to_have_count(5)
    search.fill(f"{t} nightly")
    settled(page, f"/runs?q={t}+nightly")
    assert run_names(page) == [f"{t} Nightly review"] * 2

    search.fill(t)
    page.get_by_test_id("runs-status-failed").check()
    settled(page, f"/runs?q={t}&status=failed")
    assert pills.all_inner_texts() == ["failed", "failed"]
    page.get_by_test_id("runs-status-completed").check()
    settled(page, f"/runs?q={t}&status=completed%2Cfailed")
    expect(rows).to_have_count(5)
    page.get_by_test_id("runs-status-failed").uncheck()
    settled(page, f"/runs?q={t}&status=completed")
    assert pills.all_inner_texts() == ["completed"] * 3

    # Today, in the browser's own days, holds them all; a range that ended long ago holds none.
    today = page.evaluate("() => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1, d.getDate()]"
                          ".map((n, i) => String(n).padStart(i ? 2 : 4, '0')).join('-') }")
    page.get_by_test_id("runs-from").fill(today)
    page.get_by_test_id("runs-to").fill(today)
    settled(page, f"/runs?q={t}&status=completed&from={today}&to={today}")
    expect(rows).to_have_count(3)

    # The address holds the filters: a reload shows the same list with the same controls.
    page.reload()
    settled(page, f"/runs?q={t}&status=completed&from={today}&to={today}")
    expect(rows).to_have_count(3)
    expect(page.get_by_test_id("runs-search")).to_have_value(t)
    expect(page.get_by_test_id("runs-status-completed")).to_be_checked()
    expect(page.get_by_test_id("runs-status-failed")).not_to_be_checked()
    expect(page.get_by_test_id("runs-from")).to_have_value(today)

    # No run of these went to OpenAI: the page says nothing matches and clears the filters on request.
    page.get_by_test_id("runs-provider-filter").select_option("openai")
    settled(page, f"&provider=openai&from={today}&to={today}")
    expect(page.get_by_test_id("runs-no-match")).to_contain_text("No runs match")
    page.get_by_test_id("runs-provider-filter").select_option("simulated")
    settled(page, f"&provider=simulated&from={today}&to={today}")
    expect(rows).to_have_count(3)
    page.get_by_test_id("runs-from").fill("")
    page.get_by_test_id("runs-to").fill("2000-01-01")
    settled(page, "&provider=simulated&to=2000-01-01")
    expect(page.get_by_test_id("runs-no-match")).to_be_visible()
    page.get_by_test_id("clear-filters-empty").click()
    page.wait_for_url(lambda url: url.endswith("/runs"))
    expect(page.get_by_test_id("runs-search")).to_have_value("")
    expect(page.get_by_test_id("run-table")).to_be_visible()


def test_load_more_brings_the_next_page_of_runs_by_the_cursor(page):
    t = tag()
    page.goto("/runs")
    wf = api(page, "POST", "/workflows", {"source": VALID.format(name=f"{t} many")})
    made = [api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": DONE})["id"] for _ in range(52)]
    for run_id in made:
        finished(page, run_id)
    page.goto(f"/runs?q={t}")
    settled(page, f"/runs?q={t}")
    links = page.get_by_test_id("run-table").locator("tbody td a.strong")
    expect(links).to_have_count(50)
    assert page.get_by_test_id("runs-count").inner_text() == "50 of 52"
    page.get_by_test_id("load-more").click()
    expect(links).to_have_count(52)
    shown = [href.rsplit("/", 1)[1] for href in (a.get_attribute("href") or "" for a in links.all())]
    assert len(set(shown)) == 52 and set(shown) == set(made)
    expect(page.get_by_test_id("load-more")).to_have_count(0)


def test_two_workflows_of_one_name_are_told_apart_by_their_number(page):
    t = tag()
    page.goto("/")
    first = api(page, "POST", "/workflows", {"source": VALID.format(name=f"{t} twin")})
    second = api(page, "POST", "/workflows", {"source": VALID.format(name=f"{t} twin")})
    api(page, "POST", "/workflows", {"source": VALID.format(name=f"{t} single")})
    page.goto(f"/?q={t}")
    settled(page, f"/?q={t}")
    ids = page.get_by_test_id("workflow-table").get_by_test_id("workflow-twin-id")
    expect(ids).to_have_count(2)
    assert sorted(s.strip() for s in ids.all_inner_texts()) == sorted([f"#{first['id']}", f"#{second['id']}"])
    titles = [ids.nth(i).get_attribute("title") or "" for i in range(2)]
    assert any(title.endswith(f"this one is workflow #{first['id']}") for title in titles)

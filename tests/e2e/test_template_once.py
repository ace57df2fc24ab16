""""Open and run" on a gallery template saves the template once: the first time it says it saved a new
workflow; after that it says the workspace has one and offers to open (run) that copy or make another,
named "<name> (2)" in its document too."""
from __future__ import annotations

import re

from tests.support.browser import api

SLUG = "goal-driven"  # a template no other browser test saves


def copies(page, name: str) -> list[dict]:
    return [w for w in api(page, "GET", "/workflows") if w["name"] == name]


def open_and_run(page):
    """Clicks "Open and run" on the card in the gallery of the home page; returns the card."""
    page.goto("/")
    card = page.get_by_role("region", name="Start from a template").get_by_test_id(f"template-{SLUG}")
    card.wait_for()
    card.get_by_role("button", name="Open and run").click()
    return card


def run_page_id(page) -> str:
    page.wait_for_url(re.compile(r"/runs/[0-9a-f-]{36}$"))
    return page.url.rsplit("/", 1)[1]


def test_open_and_run_saves_a_template_once_then_offers_the_copy_or_another(page):
    page.goto("/")
    name = api(page, "GET", f"/templates/{SLUG}")["document"]["name"]
    for w in api(page, "GET", "/workflows"):  # a clean start, whatever ran before in this session
        if w["name"].startswith(name):
            api(page, "DELETE", f"/workflows/{w['id']}")

    # No copy yet: saved once, and the card says so before the run opens.
    card = open_and_run(page)
    notice = card.get_by_test_id("template-notice")
    notice.wait_for()
    assert f"Saved “{name}” as a new workflow" in notice.inner_text()
    first_run = run_page_id(page)
    [mine] = copies(page, name)
    assert api(page, "GET", f"/runs/{first_run}")["workflow_id"] == mine["id"]

    # Again: nothing new is saved; the card says there is a copy and offers both ways.
    card = open_and_run(page)
    choice = card.get_by_test_id("template-copy-choice")
    choice.wait_for()
    assert f"You already have “{name}” here" in choice.inner_text()
    assert card.get_by_test_id("template-open-copy").inner_text() == "Open your copy"
    assert card.get_by_test_id("template-make-another").inner_text() == "Make another"
    assert len(copies(page, name)) == 1
    assert page.url.endswith("/")

    # "Open your copy" runs that same workflow.
    card.get_by_test_id("template-open-copy").click()
    second_run = run_page_id(page)
    assert second_run != first_run
    assert api(page, "GET", f"/runs/{second_run}")["workflow_id"] == mine["id"]
    assert len(copies(page, name)) == 1

    # "Make another" saves "<name> (2)", its document named so too (so the name lasts past an edit), and runs it.
    card = open_and_run(page)
    card.get_by_test_id("template-make-another").click()
    notice = card.get_by_test_id("template-notice")
    notice.wait_for()
    assert f"Saved “{name} (2)” as a new workflow" in notice.inner_text()
    third_run = run_page_id(page)
    [another] = copies(page, f"{name} (2)")
    saved = api(page, "GET", f"/workflows/{another['id']}")
    assert saved["document"]["name"] == f"{name} (2)" and saved["valid"], saved["errors"]
    assert api(page, "GET", f"/runs/{third_run}")["workflow_id"] == another["id"]
    assert len(copies(page, name)) == 1

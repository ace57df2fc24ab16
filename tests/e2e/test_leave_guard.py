"""Unsaved edits are never lost by moving around inside the app: the top bar
links and the browser's Back ask first, and staying keeps the edits."""
from __future__ import annotations

import re

from tests.support.browser import wait_checked


def start_editing(page):
    page.goto("/")
    page.get_by_role("link", name="+ New workflow").first.click()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    page.get_by_test_id("palette-step").click()
    page.get_by_test_id("dirty").wait_for()
    wait_checked(page)


def test_leaving_a_dirty_editor_by_a_top_bar_link_asks_and_staying_keeps_the_edits(page):
    start_editing(page)
    nodes = page.locator(".react-flow__node").count()
    assert nodes >= 1

    page.locator(".topnav").get_by_role("link", name="Runs").click()
    page.get_by_test_id("leave-confirm").wait_for()
    page.get_by_test_id("leave-stay").click()
    assert page.get_by_test_id("leave-confirm").count() == 0
    assert page.url.endswith("/workflows/new")
    page.get_by_test_id("dirty").wait_for()
    assert page.locator(".react-flow__node").count() == nodes

    # Escape also stays.
    page.locator(".topnav").get_by_role("link", name="Workflows").click()
    page.get_by_test_id("leave-confirm").wait_for()
    page.keyboard.press("Escape")
    assert page.get_by_test_id("leave-confirm").count() == 0
    assert page.url.endswith("/workflows/new")

    # Leaving on purpose goes.
    page.locator(".topnav").get_by_role("link", name="Runs").click()
    page.get_by_test_id("leave-discard").click()
    page.wait_for_url("**/runs")
    assert page.get_by_test_id("editor").count() == 0


def test_browser_back_from_a_dirty_editor_asks_and_staying_keeps_the_edits(page):
    start_editing(page)
    nodes = page.locator(".react-flow__node").count()

    page.go_back()
    page.get_by_test_id("leave-confirm").wait_for()
    page.get_by_test_id("leave-stay").click()
    assert page.url.endswith("/workflows/new")
    page.get_by_test_id("dirty").wait_for()
    assert page.locator(".react-flow__node").count() == nodes

    page.go_back()
    page.get_by_test_id("leave-discard").click()
    page.get_by_role("link", name="+ New workflow").first.wait_for()
    assert page.get_by_test_id("editor").count() == 0


def test_a_saved_editor_leaves_without_asking(page):
    start_editing(page)
    page.get_by_test_id("save").click()
    page.wait_for_url(re.compile(r"/workflows/\d+$"))
    page.get_by_test_id("dirty").wait_for(state="detached")
    page.locator(".topnav").get_by_role("link", name="Runs").click()
    page.wait_for_url("**/runs")
    assert page.get_by_test_id("leave-confirm").count() == 0

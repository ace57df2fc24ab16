"""Readable at 1280x800: a loop's own settings lead its inspector, palette
items keep the graph compact, long names do not break the workflows list."""
from __future__ import annotations

from .conftest import open_new_editor, wait_checked


def node(page, key: str):
    return page.locator(f"[data-testid='node-{key}']")


def test_a_loops_settings_come_before_the_general_step_fields(page):
    open_new_editor(page)
    page.get_by_test_id("palette-judge").click()
    node(page, "refine").wait_for()
    node(page, "refine").locator(".loop-head .node-title").click()
    heads = page.locator(".insp-section-head h4").all_inner_texts()
    assert heads[:3] == ["Judge loop (repeat-until)", "Loop settings", "Step settings"], heads
    for field in ("#f-loop\\.maxIterations", "#f-loop\\.untilAgent"):
        assert page.locator(field).bounding_box()["y"] < page.locator("#f-dependsOn").bounding_box()["y"]

    # A plain step keeps one section.
    page.get_by_test_id("palette-step").click()
    wait_checked(page)
    heads = page.locator(".insp-section-head h4").all_inner_texts()
    assert heads[0] == "Step" and "Loop settings" not in heads, heads

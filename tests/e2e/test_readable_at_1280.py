"""Readable at 1280 px: Fit and Tidy up never zoom out so far that node text is unreadable, the canvas
keeps most of the width with YAML and inspector open, run-view chips have legible text, and steps added
from the palette never overlap."""
from __future__ import annotations

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import type_yaml

MANY = "name: wide\nsteps:\n" + "".join(
    f"  - id: s{i}\n    instructions: Step number {i} of a long chain.\n" + (f"    dependsOn: [s{i - 1}]\n" if i else "")
    for i in range(14)
)


def zoom(page) -> float:
    return page.evaluate("""() => {
        const t = getComputedStyle(document.querySelector('.react-flow__viewport')).transform;
        return t === 'none' ? 1 : new DOMMatrixReadOnly(t).a;
    }""")


def smallest_text_px(page) -> float:
    """The smallest rendered size of node text on screen (font size times the canvas zoom)."""
    font = page.evaluate("() => Math.min(...[...document.querySelectorAll('.react-flow__node .node-title, .react-flow__node .node-text')]"
                         ".map((e) => parseFloat(getComputedStyle(e).fontSize)))")
    return font * zoom(page)


def test_fit_and_tidy_up_keep_node_text_at_11_px_or_more(page):
    open_new_editor(page)
    type_yaml(page, MANY)
    page.locator("[data-testid='node-s0']").wait_for()
    wait_checked(page)
    page.get_by_test_id("toggle-yaml").click()
    page.get_by_test_id("tidy").click()
    page.wait_for_timeout(600)
    assert smallest_text_px(page) >= 11, zoom(page)
    page.get_by_test_id("fit").click()
    page.wait_for_timeout(400)
    assert smallest_text_px(page) >= 11, zoom(page)


def test_with_yaml_and_inspector_open_the_canvas_keeps_most_of_the_width(page):
    open_new_editor(page)
    type_yaml(page, MANY)  # opens the YAML panel
    page.locator("[data-testid=yaml-editor]").wait_for()
    width = page.locator("[data-testid=canvas]").bounding_box()["width"]
    assert width >= 850, width
    assert page.locator("[data-testid=inspector]").is_visible()


def test_steps_added_from_the_palette_never_overlap(page):
    open_new_editor(page)
    for _ in range(4):
        page.locator(".palette button", has_text="Step").first.click()
    page.wait_for_function("() => document.querySelectorAll('.react-flow__node').length >= 4")
    # One snapshot of every node: a click brings the new node into view with an animated pan, so boxes
    # read one at a time can come from different moments of it.
    boxes = page.evaluate("""() => [...document.querySelectorAll('.react-flow__node')].map((e) => {
        const r = e.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    })""")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
            assert apart, (a, b)

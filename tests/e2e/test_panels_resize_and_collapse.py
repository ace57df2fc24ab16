"""Side panels that resize and collapse: the inspector and the run page's panel are widened by dragging their
edge (or with the arrow keys on it), collapse to a rail and come back, and remember both for the next visit;
the canvas beside them refits. The Files tab edits a file in a wide panel, not in the 340 px inspector."""
from __future__ import annotations

from tests.support.browser import api, open_new_editor
from tests.support.run_pages import finished_run


def width(page, testid: str) -> float:
    return page.get_by_test_id(testid).bounding_box()["width"]


def test_the_inspector_resizes_collapses_and_remembers(page):
    open_new_editor(page)
    start = width(page, "inspector")
    assert 320 <= start <= 360, start

    # The keyboard: the edge is a separator that takes focus; left widens (the panel is at the right).
    grip = page.get_by_test_id("resize-inspector")
    assert grip.get_attribute("role") == "separator"
    grip.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    assert abs(width(page, "inspector") - (start + 96)) <= 2, width(page, "inspector")
    assert int(grip.get_attribute("aria-valuenow")) == round(start + 96)

    # The mouse: drag the edge 100 px to the right, the panel narrows by as much.
    box = grip.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 50, y, steps=4)
    page.mouse.move(x + 100, y, steps=4)
    page.mouse.up()
    dragged = width(page, "inspector")
    assert abs(dragged - (start - 4)) <= 3, dragged

    # Collapsed: a rail, the canvas takes the room; the choice and the width survive a reload.
    canvas_before = width(page, "canvas")
    page.get_by_test_id("collapse-inspector").click()
    page.get_by_test_id("inspector-rail").wait_for()
    assert page.get_by_test_id("inspector").count() == 0
    page.wait_for_function(f"() => document.querySelector('[data-testid=canvas]').getBoundingClientRect().width > {canvas_before + 250}")
    page.reload()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("expand-inspector").click()
    assert abs(width(page, "inspector") - dragged) <= 2


def test_the_files_tab_edits_a_file_in_a_wide_panel(page):
    page.goto("/")
    wf = api(page, "POST", "/workflows", {"document": {"name": "wide-files", "steps": [{"id": "start", "instructions": "Go."}]}})
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    inspector = page.get_by_test_id("inspector")
    narrow = width(page, "inspector")
    inspector.get_by_role("tab", name="Files").click()
    panel = page.get_by_test_id("folder-panel")
    panel.get_by_test_id("folder-new-file").click()
    panel.get_by_test_id("folder-path").fill("prompts/brief.md")
    panel.get_by_test_id("folder-path").press("Enter")
    editor = panel.get_by_test_id("folder-file-editor")
    editor.wait_for()
    # At 1280 px: the panel more than twice the inspector's width, the editor itself wider than the old panel.
    assert width(page, "inspector") > 2 * narrow, (width(page, "inspector"), narrow)
    assert editor.bounding_box()["width"] > narrow, editor.bounding_box()
    # Back to another tab: the inspector's own width again, and the canvas refitted to the room it got back.
    inspector.get_by_role("tab", name="Workflow").click()
    page.wait_for_function(f"() => document.querySelector('[data-testid=inspector]').getBoundingClientRect().width < {narrow + 2}")


def test_the_run_panel_collapses_and_the_canvas_refits(page):
    run = finished_run(page)
    page.goto(f"/runs/{run['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')")
    page.get_by_test_id("run-tab-workspace").click()  # the widest tab: the canvas is at its narrowest
    # The coordinator's lane (on by default) folds to its own rail: the canvas gets both panels' room back.
    page.get_by_test_id("coordinator-lane").wait_for()
    before = page.locator("[data-testid=canvas] .react-flow").bounding_box()
    page.get_by_test_id("collapse-run-panel").click()
    page.get_by_test_id("run-side-rail").wait_for()
    page.get_by_test_id("collapse-coordinator-lane").click()
    page.get_by_test_id("coordinator-lane-rail").wait_for()
    canvas = page.locator("[data-testid=canvas] .react-flow").bounding_box()
    assert canvas["width"] > 1180 and canvas["width"] > before["width"] + 400, (before, canvas)
    # Refitted to the wider box: the whole graph in view, centred rather than hugging the left edge.
    page.wait_for_timeout(300)
    nodes = [n.bounding_box() for n in page.locator(".react-flow__node").all()]
    left = min(n["x"] for n in nodes)
    right = max(n["x"] + n["width"] for n in nodes)
    assert left >= canvas["x"] and right <= canvas["x"] + canvas["width"], (left, right, canvas)
    assert abs((left - canvas["x"]) - (canvas["x"] + canvas["width"] - right)) < 40, (left, right, canvas)
    page.get_by_test_id("expand-run-panel").click()
    assert page.get_by_test_id("run-tab-workspace").get_attribute("aria-selected") == "true"


def test_the_yaml_panel_resizes_and_remembers_its_width_at_1440(page):
    page.set_viewport_size({"width": 1440, "height": 900})
    open_new_editor(page)
    if page.get_by_test_id("yaml-view").count() == 0:
        page.get_by_test_id("toggle-yaml").click()
    view = page.get_by_test_id("yaml-view")
    view.wait_for()
    start = width(page, "yaml-view")
    assert 320 <= start <= 340, start
    grip = page.get_by_test_id("resize-YAML-panel")
    assert grip.get_attribute("role") == "separator"
    grip.focus()
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    assert abs(width(page, "yaml-view") - (start + 64)) <= 2, width(page, "yaml-view")
    inspector = width(page, "inspector")
    # The mouse: 40 px to the right narrows it by as much; the inspector keeps its width.
    box = grip.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y, steps=4)
    page.mouse.up()
    dragged = width(page, "yaml-view")
    assert abs(dragged - (start + 24)) <= 3, dragged
    assert abs(width(page, "inspector") - inspector) <= 1
    page.reload()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("yaml-view").wait_for()
    assert abs(width(page, "yaml-view") - dragged) <= 2
    # Its edge's button hides the YAML view.
    page.get_by_test_id("collapse-YAML-panel").click()
    page.wait_for_function("() => !document.querySelector('[data-testid=yaml-view]')")

"""Keyboard basics: canvas nodes show a focus ring, Enter opens one, arrows move between them, Delete
removes one; Tab leaves a one-line CEL field; every dialog takes focus, keeps it and closes on Escape."""
from __future__ import annotations

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import CONDITIONED_CHAIN, focused_node, type_yaml, yaml_has


def test_nodes_take_focus_with_a_visible_ring_and_work_by_keyboard(page):
    open_new_editor(page)
    type_yaml(page, CONDITIONED_CHAIN)
    page.locator("[data-testid='node-third']").wait_for()
    wait_checked(page)
    page.get_by_test_id("toggle-yaml").click()  # close the YAML panel: Delete must reach the canvas
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})

    page.locator(".react-flow__node[data-id='first']").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # keyboard focus, so :focus-visible applies
    assert focused_node(page) == "first"
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle + ' ' + getComputedStyle(document.activeElement).outlineWidth")
    assert outline.startswith("solid") and not outline.endswith(" 0px"), outline
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "step first"

    page.keyboard.press("ArrowRight")
    assert focused_node(page) == "second"
    page.keyboard.press("Enter")
    page.locator("#f-id").wait_for()
    assert page.locator("#f-id").input_value() == "second"

    page.locator(".react-flow__node[data-id='third']").focus()
    page.keyboard.press("Delete")
    page.locator("[data-testid='node-third']").wait_for(state="detached")
    assert page.locator("[data-testid='node-first']").count() == 1


def test_tab_leaves_a_one_line_cel_field_without_inserting_spaces(page):
    open_new_editor(page)
    type_yaml(page, CONDITIONED_CHAIN)
    page.locator("[data-testid='node-second']").wait_for()
    wait_checked(page)
    page.locator("[data-testid='node-second'] .node-title").click()
    cel = page.locator("[data-testid=inspector] .cm-content[aria-label='CEL expression']").first
    cel.click()
    page.keyboard.press("End")
    page.keyboard.press("Tab")
    assert not page.evaluate("() => !!document.activeElement.closest('.cm-editor')"), "focus stayed in the CEL field"
    wait_checked(page)
    yaml_has(page, "steps.first.status == 'completed'")
    assert "completed'   " not in page.locator("[data-testid=yaml-editor]").inner_text()


def test_the_import_dialog_takes_focus_keeps_it_and_closes_on_escape(page):
    open_new_editor(page)
    page.get_by_role("button", name="Import").click()
    page.get_by_test_id("import-dialog").wait_for()
    assert page.evaluate("() => document.activeElement.getAttribute('data-testid')") == "import-text"
    for _ in range(12):  # Tab cycles inside the dialog, never out to the page behind
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('dialog[open]')")
    page.keyboard.press("Escape")
    page.get_by_test_id("import-dialog").wait_for(state="detached")


def test_the_run_dialog_takes_focus_and_closes_on_escape(page):
    open_new_editor(page)
    type_yaml(page, CONDITIONED_CHAIN)
    wait_checked(page)
    page.get_by_test_id("run").click()
    page.get_by_test_id("run-dialog").wait_for()
    assert page.evaluate("() => document.activeElement.getAttribute('data-testid')") == "run-provider"
    for _ in range(15):
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('dialog[open]')")
    page.keyboard.press("Escape")
    page.get_by_test_id("run-dialog").wait_for(state="detached")

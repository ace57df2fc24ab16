"""The YAML view and the canvas follow each other (comments kept), undo and
redo, keyboard delete, and the workflows list (versions, duplicate, delete)."""
from __future__ import annotations

import re

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import COMMENTED_CHAIN, blank_canvas, show_yaml, type_yaml, yaml_has


def test_yaml_and_canvas_follow_each_other_and_comments_survive(page):
    open_new_editor(page)
    type_yaml(page, COMMENTED_CHAIN)
    page.locator("[data-testid='node-polish']").wait_for()
    wait_checked(page)
    assert page.locator("[data-id='draft->polish']").count() == 1
    assert "Polish the draft." in page.locator("[data-testid='node-polish']").inner_text()

    # Canvas/inspector -> YAML, comments kept.
    page.locator("[data-testid='node-polish'] .node-title").click()
    page.locator("#f-instructions").fill("Polish the draft until it shines.")
    wait_checked(page)
    yaml_has(page, "Polish the draft until it shines.", "# A two-step chain", "# the only agent")

    # YAML -> canvas: a typo shows as a problem on its line, the fix clears it.
    type_yaml(page, COMMENTED_CHAIN.replace("dependsOn: [draft]", "dependsOn: [drafts]"))
    wait_checked(page)
    problem = page.get_by_test_id("problem").first
    problem.wait_for()
    assert "line 12" in problem.inner_text()
    assert page.locator(".cm-lint-marker-error").count() >= 1
    assert page.locator("[data-id='draft->polish']").count() == 0
    type_yaml(page, COMMENTED_CHAIN)
    wait_checked(page)
    assert page.get_by_test_id("problem").count() == 0
    page.locator("[data-id='draft->polish']").wait_for(state="attached")


def test_undo_redo_and_keyboard_delete(page):
    open_new_editor(page)
    type_yaml(page, COMMENTED_CHAIN)
    page.locator("[data-testid='node-polish']").wait_for()
    wait_checked(page)

    page.locator("[data-testid='node-draft'] .node-title").click()
    page.locator("#f-instructions").fill("A better draft.")
    wait_checked(page)
    assert "A better draft." in page.locator("[data-testid='node-draft']").inner_text()
    blank_canvas(page)
    page.keyboard.press("Control+z")
    page.wait_for_function("() => document.querySelector(\"[data-testid='node-draft']\").innerText.includes('Write a draft.')")
    page.keyboard.press("Control+Shift+z")
    page.wait_for_function("() => document.querySelector(\"[data-testid='node-draft']\").innerText.includes('A better draft.')")

    # Delete a dependency (select the edge), then a step.
    a = page.locator(".react-flow__node[data-id='draft'] .react-flow__handle.source").bounding_box()
    b = page.locator(".react-flow__node[data-id='polish'] .react-flow__handle.target").bounding_box()
    page.mouse.click((a["x"] + b["x"] + b["width"]) / 2, a["y"] + a["height"] / 2)
    page.get_by_text("Remove dependency").wait_for()
    page.keyboard.press("Delete")
    page.locator("[data-id='draft->polish']").wait_for(state="detached")
    page.locator("[data-testid='node-draft'] .node-title").click()
    blank = page.locator("[data-testid=canvas]")
    blank.focus()
    page.keyboard.press("Delete")
    page.locator("[data-testid='node-draft']").wait_for(state="detached")
    wait_checked(page)
    show_yaml(page)
    page.wait_for_function("() => { const t = document.querySelector('[data-testid=yaml-editor]').innerText;"
                           " return t.includes('id: polish') && !t.includes('id: draft'); }")


def test_workflows_list_versions_duplicate_and_delete(page):
    open_new_editor(page)
    type_yaml(page, COMMENTED_CHAIN.replace("name: chain", "name: listed-chain"))
    wait_checked(page)
    blank_canvas(page)
    page.keyboard.press("Control+s")
    page.wait_for_url(re.compile(r"/workflows/\d+$"))
    page.get_by_test_id("dirty").wait_for(state="detached")
    page.locator("[data-testid='node-draft'] .node-title").click()
    page.locator("#f-instructions").fill("Second version.")
    wait_checked(page)
    page.get_by_test_id("dirty").wait_for()
    page.get_by_test_id("save").click()
    page.get_by_text("Saved as version 2.").wait_for()

    page.goto("/")
    row = page.locator("tr", has=page.get_by_role("link", name="listed-chain", exact=True))
    row.wait_for()
    assert "v2" in row.inner_text()
    row.get_by_role("button", name="History").click()
    versions = page.get_by_test_id("versions")
    versions.wait_for()
    assert versions.locator("li").count() == 2

    row.get_by_role("button", name="Duplicate").click()
    copy = page.locator("tr", has=page.get_by_role("link", name="listed-chain (copy)"))
    copy.wait_for()

    page.once("dialog", lambda d: d.accept())
    copy.get_by_role("button", name="Delete").click()
    copy.wait_for(state="detached")
    assert row.count() == 1


def test_renaming_an_agent_or_a_step_happens_on_enter_and_rewrites_references(page):
    open_new_editor(page)
    type_yaml(page, COMMENTED_CHAIN)
    wait_checked(page)
    page.get_by_role("tab", name="Agents").click()
    page.locator(".agent-chip", has_text="writer").click()
    name = page.locator("#f-name")
    name.fill("")
    name.press("Enter")  # empty: back to the current name, nothing renamed
    assert name.input_value() == "writer"
    name.fill("author")
    name.press("Enter")
    yaml_has(page, "author:", "agent: author")
    wait_checked(page)
    assert "0 errors" in page.get_by_test_id("problems").inner_text()
    page.locator("[data-testid='node-draft'] .node-title").click()
    step_id = page.locator("#f-id")
    step_id.fill("first-draft")
    step_id.press("Enter")
    yaml_has(page, "id: first-draft", "- first-draft")

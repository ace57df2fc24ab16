"""The inspector opens every tab and every node kind's panel without crashing, and an error anywhere in
the editor never loses unsaved edits: they come back on reload with a notice."""
from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import type_yaml

EVERY_KIND = """\
name: every-kind
agents:
  writer:
    description: Writes.
  judge:
    description: Judges.
    resultSchema:
      type: object
      required: [done]
      properties:
        done: {type: boolean}
        reason: {type: string}
includes:
  deploy: workflows/deploy.yaml
steps:
  - id: plain
    agent: writer
    instructions: Write.
  - id: each
    dependsOn: [plain]
    loop:
      forEach: "['a', 'b']"
      steps:
        - id: handle
          agent: writer
          instructions: Handle the item.
  - id: refine
    dependsOn: [plain]
    loop:
      maxIterations: 3
      until: "steps.work.content.contains('DONE')"
      steps:
        - id: work
          agent: writer
          instructions: Work.
  - id: judged
    dependsOn: [plain]
    loop:
      maxIterations: 3
      untilAgent: judge
      steps:
        - id: draft
          agent: writer
          instructions: Draft.
  - id: ship
    include: deploy
"""

TABS = ("Workflow", "Agents", "Options", "Includes")


def no_crash(page) -> None:
    assert page.locator("[data-testid=error-boundary]").count() == 0, page.locator("[data-testid=error-boundary]").inner_text()


def open_tabs(page) -> None:
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})
    for tab in TABS:
        page.locator("[data-testid=inspector] [role=tab]", has_text=tab).click()
        page.wait_for_timeout(50)  # let a render loop (React error #185) show itself
        no_crash(page)
        assert page.locator("[data-testid=inspector] [role=tab][aria-selected=true]", has_text=tab).count() == 1


def test_every_tab_and_every_node_kinds_panel_opens_on_a_new_workflow(page):
    open_new_editor(page)
    open_tabs(page)  # the blank document: no options, no includes
    type_yaml(page, EVERY_KIND)
    page.locator("[data-testid='node-ship']").wait_for()
    wait_checked(page)
    open_tabs(page)
    page.locator("[data-testid=inspector] [role=tab]", has_text="Agents").click()
    for agent in ("writer", "judge"):
        page.locator("[data-testid=inspector] .agent-chip", has_text=agent).click()
        no_crash(page)
    for _ in range(4):  # the whole graph in view (Fit stops at a readable zoom; the user may go further)
        page.locator(".react-flow__controls-zoomout").click()
    for node in ("plain", "each", "each/handle", "refine", "refine/work", "judged", "judged/draft", "ship"):
        box = page.locator(f"[data-testid='node-{node}']").first
        box.locator(".node-title").first.click()
        page.locator("[data-testid=inspector]").wait_for()
        no_crash(page)
        assert page.locator("[data-testid=inspector] input, [data-testid=inspector] textarea, [data-testid=inspector] select").count() > 0


def test_every_tab_opens_on_a_saved_workflow(page):
    open_new_editor(page)
    type_yaml(page, EVERY_KIND)
    page.locator("[data-testid='node-ship']").wait_for()
    wait_checked(page)
    page.get_by_test_id("save").click()
    page.wait_for_url("**/workflows/*")
    page.reload()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    open_tabs(page)


def test_a_crash_in_a_panel_keeps_the_unsaved_document_for_the_reload(page):
    open_new_editor(page)
    type_yaml(page, EVERY_KIND.replace("name: every-kind", "name: kept-after-crash"))
    page.locator("[data-testid='node-ship']").wait_for()
    wait_checked(page)
    page.evaluate("sessionStorage.setItem('ld:crash-probe', 'inspector-options')")
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})
    page.locator("[data-testid=inspector] [role=tab]", has_text="Options").click()
    page.locator("[data-testid=error-boundary]").wait_for()
    assert "reload" in page.locator("[data-testid=error-boundary]").inner_text().lower()

    page.evaluate("sessionStorage.removeItem('ld:crash-probe')")
    page.reload()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.locator("[data-testid=draft-restored]").wait_for()
    page.locator("[data-testid='node-judged']").wait_for()
    assert page.locator("[data-testid=draft-restored]").is_visible()
    page.get_by_test_id("save").click()
    page.wait_for_url("**/workflows/*")
    page.wait_for_function("() => !localStorage.getItem('ld:draft:new')")


def test_discarding_a_restored_draft_goes_back_to_the_saved_version(page):
    open_new_editor(page)
    type_yaml(page, EVERY_KIND.replace("name: every-kind", "name: saved-one"))
    page.locator("[data-testid='node-ship']").wait_for()
    wait_checked(page)
    page.get_by_test_id("save").click()
    page.wait_for_url("**/workflows/*")
    wait_checked(page)
    type_yaml(page, EVERY_KIND.replace("name: every-kind", "name: saved-one").replace("  - id: ship\n    include: deploy\n", ""))
    page.wait_for_function("() => !document.querySelector(\"[data-testid='node-ship']\")")
    page.wait_for_function("() => Object.keys(localStorage).some((k) => k.startsWith('ld:draft:') && k !== 'ld:draft:new')")
    page.reload()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.locator("[data-testid=draft-restored]").wait_for()
    assert page.locator("[data-testid='node-ship']").count() == 0
    page.get_by_test_id("discard-draft").click()
    # The document, not the drawing: at a readable zoom a tall layout may leave `ship` out of view (and undrawn).
    yaml = page.locator("[data-testid=yaml-editor]")
    expect(yaml).to_contain_text("- id: ship")
    page.reload()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    assert page.locator("[data-testid=draft-restored]").count() == 0
    expect(yaml).to_contain_text("- id: ship")


def test_saving_without_changes_makes_no_new_version(page):
    open_new_editor(page)
    type_yaml(page, EVERY_KIND.replace("name: every-kind", "name: no-empty-versions"))
    wait_checked(page)
    page.get_by_test_id("save").click()
    page.wait_for_url("**/workflows/*")
    page.locator(".banner", has_text="Saved as version 1").wait_for()
    page.keyboard.press("Control+s")
    page.locator(".banner", has_text="nothing to save").wait_for()

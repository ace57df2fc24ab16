"""A loop says which inner step's output each iteration hands on and how to change it; choosing a judge
offers to clear the placeholder `until`; renaming a step carries into the CEL that names it (undoable)."""
from __future__ import annotations

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import type_yaml, yaml_has

JUDGE_LOOP = """\
name: writer-critic
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
steps:
  - id: refine
    loop:
      maxIterations: 3
      untilAgent: judge
      steps:
        - id: draft
          agent: writer
          instructions: Draft.
        - id: critic
          agent: writer
          dependsOn: [draft]
          instructions: Criticise.
"""

REPEAT = """\
name: repeat
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
steps:
  - id: refine
    loop:
      maxIterations: 3
      until: "steps.work.content.contains('DONE')"
      steps:
        - id: work
          agent: writer
          instructions: Work.
"""


def select_loop(page, key: str = "refine") -> None:
    page.locator(f"[data-testid='node-{key}'] .node-title").first.click()
    page.locator("#f-loop\\.maxIterations").wait_for()


def test_the_loop_names_the_inner_step_its_iterations_hand_on_and_how_to_change_it(page):
    open_new_editor(page)
    type_yaml(page, JUDGE_LOOP)
    page.locator("[data-testid='node-refine/critic']").wait_for()
    wait_checked(page)
    chip = page.get_by_test_id("iteration-output-refine")
    page.wait_for_function("() => document.querySelector(\"[data-testid='iteration-output-refine']\").innerText.includes('critic')")
    assert "last of critic" in chip.inner_text()
    select_loop(page)
    note = page.get_by_test_id("iteration-output-note")
    assert "critic" in note.inner_text() and "move it last" in note.inner_text()

    # Write the draft last (critic -> draft): the drafts become the iteration output, as zenflow's runner takes
    # the last inner step as written.
    type_yaml(page, JUDGE_LOOP.replace("""        - id: draft
          agent: writer
          instructions: Draft.
        - id: critic
          agent: writer
          dependsOn: [draft]
          instructions: Criticise.""", """        - id: critic
          agent: writer
          instructions: Criticise.
        - id: draft
          agent: writer
          dependsOn: [critic]
          instructions: Draft."""))
    wait_checked(page)
    page.wait_for_function("() => document.querySelector(\"[data-testid='iteration-output-refine']\").innerText.includes('of draft')")


def test_choosing_a_judge_offers_to_clear_the_placeholder_until(page):
    open_new_editor(page)
    type_yaml(page, REPEAT)
    page.locator("[data-testid='node-refine/work']").wait_for()
    wait_checked(page)
    select_loop(page)
    assert page.get_by_test_id("judge-until-offer").count() == 0
    page.locator("#f-loop\\.untilAgent").select_option("judge")
    offer = page.get_by_test_id("judge-until-offer")
    offer.wait_for()
    assert "placeholder" in offer.inner_text()
    page.get_by_test_id("clear-until").click()
    wait_checked(page)
    yaml_has(page, "untilAgent: judge")
    page.wait_for_function("() => !document.querySelector('[data-testid=yaml-editor]').innerText.includes('until: ')")
    assert page.get_by_test_id("judge-until-offer").count() == 0


def test_keeping_both_hides_the_offer_and_keeps_until(page):
    open_new_editor(page)
    type_yaml(page, REPEAT)
    page.locator("[data-testid='node-refine/work']").wait_for()
    wait_checked(page)
    select_loop(page)
    page.locator("#f-loop\\.untilAgent").select_option("judge")
    page.get_by_test_id("keep-until").click()
    assert page.get_by_test_id("judge-until-offer").count() == 0
    yaml_has(page, "steps.work.content.contains('DONE')", "untilAgent: judge")


def test_renaming_an_inner_step_rewrites_the_until_that_names_it_and_undo_restores_it(page):
    open_new_editor(page)
    type_yaml(page, REPEAT)
    page.locator("[data-testid='node-refine/work']").wait_for()
    wait_checked(page)
    page.locator("[data-testid='node-refine/work'] .node-title").click()
    rename = page.locator("#f-id")
    rename.fill("draft")
    rename.press("Enter")
    page.locator("[data-testid='node-refine/draft']").wait_for()
    yaml_has(page, "steps.draft.content.contains('DONE')")
    wait_checked(page)
    assert page.get_by_test_id("error-count").inner_text().startswith("0 errors")
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+z")
    page.locator("[data-testid='node-refine/work']").wait_for()
    yaml_has(page, "steps.work.content.contains('DONE')")


def test_a_duplicate_id_is_said_as_it_is_typed_and_never_applied(page):
    open_new_editor(page)
    type_yaml(page, JUDGE_LOOP)
    page.locator("[data-testid='node-refine/critic']").wait_for()
    wait_checked(page)
    page.locator("[data-testid='node-refine/critic'] .node-title").click()
    rename = page.locator("#f-id")
    rename.fill("draft")  # the other inner step's id: said before leaving the field
    clash = page.get_by_test_id("f-id-clash")
    clash.wait_for()
    assert "already called “draft”" in clash.inner_text()
    rename.press("Enter")
    # Not applied: no duplicate id, and critic's dependsOn still names draft.
    wait_checked(page)
    yaml_has(page, "- id: critic")
    assert page.get_by_test_id("error-count").inner_text().startswith("0 errors")
    rename.press("Escape")
    assert rename.input_value() == "critic" and clash.count() == 0

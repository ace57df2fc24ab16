"""Pieces of a workflow: select several steps (shift-click), copy them from one
workflow into another through the system clipboard (ids renamed, edges kept,
a differing agent renamed), paste zenflow YAML written by another program,
duplicate a loop, and wrap three steps in a judge loop and unwrap them again,
the document valid at each step and undo going back through each state."""
from __future__ import annotations

from tests.support.browser import api, open_new_editor, wait_checked
from tests.support.editor_page import blank_canvas, show_yaml, yaml_has

SOURCE = """\
name: source
agents:
  writer:
    description: Writes.
steps:
  - id: draft
    agent: writer
    instructions: Write a draft.
  - id: polish
    agent: writer
    dependsOn: [draft]
    instructions: Polish the draft.
"""

TARGET = """\
name: target
agents:
  writer:
    description: Writes something else entirely.
steps:
  - id: draft
    agent: writer
    instructions: An older draft.
  - id: polish
    agent: writer
    dependsOn: [draft]
    instructions: An older polish.
"""

CHAIN = """\
name: chain
agents:
  writer:
    description: Writes.
steps:
  - id: plan
    agent: writer
    instructions: Plan it.
  - id: implement
    agent: writer
    dependsOn: [plan]
    instructions: Build it.
  - id: test
    agent: writer
    dependsOn: [implement]
    instructions: Test it.
  - id: review
    agent: writer
    dependsOn: [test]
    instructions: Review it.
  - id: ship
    agent: writer
    dependsOn: [review]
    instructions: Ship it.
"""

LOOP = """\
name: looped
agents:
  writer:
    description: Writes.
steps:
  - id: cycle
    loop:
      maxIterations: 2
      until: "steps.check.content.contains('OK')"
      steps:
        - id: work
          agent: writer
          instructions: Work.
        - id: check
          agent: writer
          dependsOn: [work]
          instructions: Check.
"""


def grant_clipboard(page, server) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)


def open_workflow(page, source: str) -> int:
    wf = api(page, "POST", "/workflows", {"source": source})
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    return wf["id"]


def node(page, key: str):
    return page.locator(f"[data-testid='node-{key}']")


def select(page, *keys: str) -> None:
    """Clicks the first step, shift-clicks the others."""
    node(page, keys[0]).locator(".node-title").first.click()
    for key in keys[1:]:
        node(page, key).locator(".node-title").first.click(modifiers=["Shift"])


def assert_valid(page) -> None:
    wait_checked(page)
    assert page.get_by_test_id("validity").inner_text() == "valid", page.get_by_test_id("problem-list").inner_text()


def yaml_text(page) -> str:
    show_yaml(page)
    return page.locator("[data-testid=yaml-editor]").inner_text()


def step_ids(page) -> list[str]:
    return sorted(page.eval_on_selector_all(".react-flow__node", "els => els.map(e => e.getAttribute('data-id'))"))


def test_two_connected_steps_copy_into_another_workflow_with_ids_renamed_and_the_edge_kept(page, server):
    grant_clipboard(page, server)
    open_workflow(page, SOURCE)
    select(page, "draft", "polish")
    bar = page.get_by_test_id("selection-bar")
    bar.wait_for()
    assert "2 selected" in bar.inner_text()
    assert page.locator(".react-flow__node.selected").count() == 2
    page.keyboard.press("Control+c")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "id: draft" in copied and "id: polish" in copied and "writer:" in copied

    other = page.context.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.bring_to_front()
    open_workflow(other, TARGET)
    blank_canvas(other)
    other.keyboard.press("Control+v")
    node(other, "polish_2").wait_for()
    node(other, "draft_2").wait_for()
    other.locator("[data-id='draft_2->polish_2']").wait_for(state="attached")
    notice = other.get_by_test_id("edit-notice")
    assert 'the pasted one is "writer_2"' in notice.inner_text()
    # The pasted steps are the selection, so Delete would take both.
    assert "2 selected" in other.get_by_test_id("selection-bar").inner_text()
    assert_valid(other)
    yaml_has(other, "id: draft_2", "id: polish_2", "writer_2:", "Writes something else entirely.")
    assert step_ids(other) == ["draft", "draft_2", "polish", "polish_2"]

    blank_canvas(other)
    other.keyboard.press("Control+z")
    node(other, "draft_2").wait_for(state="detached")
    assert step_ids(other) == ["draft", "polish"]
    assert_valid(other)
    assert not errors, errors


def test_zenflow_yaml_from_the_system_clipboard_pastes_and_other_text_says_why_not(page, server):
    grant_clipboard(page, server)
    open_new_editor(page)
    snippet = (
        "steps:\n"
        "  - id: start\n    instructions: Fetch the data.\n"
        "  - id: summarise\n    dependsOn: [start]\n    condition: \"steps.start.status == 'completed'\"\n"
        "    instructions: Summarise it.\n"
    )
    page.evaluate("t => navigator.clipboard.writeText(t)", snippet)
    blank_canvas(page)
    page.keyboard.press("Control+v")
    node(page, "start_2").wait_for()
    page.locator("[data-id='start_2->summarise']").wait_for(state="attached")
    assert_valid(page)
    yaml_has(page, "id: start_2", "steps.start_2.status == 'completed'")

    page.evaluate("t => navigator.clipboard.writeText(t)", "Dear team, see you on Monday.")
    blank_canvas(page)
    page.keyboard.press("Control+v")
    notice = page.get_by_test_id("edit-notice")
    notice.wait_for()
    assert notice.inner_text().startswith("The clipboard holds no zenflow steps:")
    assert step_ids(page) == ["start", "start_2", "summarise"]


def test_a_loop_duplicates_with_its_inner_steps(page):
    open_workflow(page, LOOP)
    node(page, "cycle").locator(".node-title").first.click()
    page.keyboard.press("Control+d")
    node(page, "cycle_2").wait_for()
    node(page, "cycle_2/check").wait_for()
    page.locator("[data-id='cycle_2/work->cycle_2/check']").wait_for(state="attached")
    assert_valid(page)
    copy, original = node(page, "cycle_2").bounding_box(), node(page, "cycle").bounding_box()
    assert (copy["x"], copy["y"]) != (original["x"], original["y"])


def test_three_steps_wrap_in_a_judge_loop_and_unwrap_with_undo_restoring_each_state(page):
    open_workflow(page, CHAIN)
    select(page, "implement", "test", "review")
    page.get_by_test_id("wrap-judge").click()
    node(page, "refine").wait_for()
    node(page, "refine/test").wait_for()
    page.locator("[data-id='plan->refine']").wait_for(state="attached")
    page.locator("[data-id='refine->ship']").wait_for(state="attached")
    page.locator("[data-id='refine/implement->refine/test']").wait_for(state="attached")
    assert_valid(page)
    yaml_has(page, "untilAgent: judge", "judge:")

    # Unwrap from the command palette, with the new loop selected.
    page.keyboard.press("Control+k")
    page.keyboard.type("unwrap")
    page.keyboard.press("Enter")
    node(page, "refine").wait_for(state="detached")
    page.locator("[data-id='review->ship']").wait_for(state="attached")
    page.locator("[data-id='plan->implement']").wait_for(state="attached")
    assert_valid(page)
    unwrapped = yaml_text(page)
    assert "id: refine" not in unwrapped and "untilAgent" not in unwrapped
    assert all(f"id: {i}" in unwrapped for i in ("plan", "implement", "test", "review", "ship"))
    page.get_by_test_id("toggle-yaml").click()

    blank_canvas(page)
    page.keyboard.press("Control+z")
    node(page, "refine/review").wait_for()
    assert_valid(page)
    page.keyboard.press("Control+z")
    node(page, "refine").wait_for(state="detached")
    page.locator("[data-id='test->review']").wait_for(state="attached")
    assert_valid(page)
    original = yaml_text(page)
    assert "refine" not in original and "judge" not in original


def test_shift_drag_selects_a_box_of_steps_and_delete_removes_them_as_one_undo_step(page):
    open_workflow(page, CHAIN)
    boxes = [node(page, k).bounding_box() for k in ("implement", "test")]
    left = min(b["x"] for b in boxes) - 20
    top = min(b["y"] for b in boxes) - 20
    right = max(b["x"] + b["width"] for b in boxes) + 20
    bottom = max(b["y"] + b["height"] for b in boxes) + 20
    page.keyboard.down("Shift")
    page.mouse.move(left, top)
    page.mouse.down()
    page.mouse.move((left + right) / 2, (top + bottom) / 2, steps=5)
    page.mouse.move(right, bottom, steps=5)
    page.mouse.up()
    page.keyboard.up("Shift")
    bar = page.get_by_test_id("selection-bar")
    bar.wait_for()
    assert "2 selected" in bar.inner_text()

    bar.get_by_role("button", name="Delete").click()
    node(page, "implement").wait_for(state="detached")
    node(page, "test").wait_for(state="detached")
    blank_canvas(page)
    page.keyboard.press("Control+z")
    node(page, "implement").wait_for()
    node(page, "test").wait_for()
    page.locator("[data-id='implement->test']").wait_for(state="attached")
    assert_valid(page)

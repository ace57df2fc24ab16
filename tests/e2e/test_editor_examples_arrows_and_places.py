"""The editor's small things that made new users stop: a grey example reads as one ("e.g.", italic) and names a
step this one depends on, never one that does not exist; the arrow keys go from an inner step to the next inner
step, not to its loop; a step without a saved place never lands on one that has one (as after an undo); an inner
step saved over its loop's header is drawn below it, clear of the iteration chips."""
from __future__ import annotations

import time

from tests.support.browser import api
from tests.support.editor_page import focused_node

FLAT = """name: examples
steps:
  - id: plan
    instructions: Plan.
  - id: review
    dependsOn: [plan]
    instructions: Review.
"""
LOOPED = """name: arrows
steps:
  - id: rounds
    loop:
      maxIterations: 3
      until: "iteration >= 2"
      steps:
        - id: draft
          instructions: Draft.
        - id: check
          dependsOn: [draft]
          instructions: Check.
  - id: ship
    dependsOn: [rounds]
    instructions: Ship.
"""


def open_workflow(page, source: str, layout: dict | None = None) -> None:
    page.goto("/")
    wf = api(page, "POST", "/workflows", {"source": source, **({"layout": layout} if layout else {})})
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")


def settled_boxes(page, *selectors: str) -> list[dict]:
    """The boxes of ``selectors`` read in one frame, once two readings a frame apart agree: the canvas fits its view
    after it opens (a zoom that moves everything), and boxes read one by one during it come from different frames."""
    read = """sels => new Promise(done => requestAnimationFrame(() => done(sels.map(s => {
        const r = document.querySelector(s).getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    }))))"""
    deadline = time.monotonic() + 30
    last = page.evaluate(read, list(selectors))
    while time.monotonic() < deadline:
        now = page.evaluate(read, list(selectors))
        if now == last:
            return now
        last = now
    raise AssertionError(f"the canvas never stood still: {last}")


def test_the_condition_example_names_a_dependency_and_looks_like_an_example(page):
    open_workflow(page, FLAT)
    page.get_by_test_id("node-review").click()
    example = page.locator("#f-condition .cm-placeholder")
    example.wait_for()
    assert example.inner_text() == "e.g. steps.plan.status == 'completed'"
    assert example.evaluate("e => getComputedStyle(e).fontStyle") == "italic"
    page.get_by_test_id("node-plan").click()
    page.wait_for_function("() => document.querySelector('#f-condition .cm-placeholder')?.innerText.startsWith('a CEL expression')")
    timeout = page.get_by_test_id("inspector").locator("input[placeholder='e.g. 10m']")
    assert timeout.evaluate("e => getComputedStyle(e, '::placeholder').fontStyle") == "italic"


def test_arrow_keys_go_from_an_inner_step_to_the_next_one(page):
    open_workflow(page, LOOPED)
    page.locator(".react-flow__node[data-id='rounds/draft']").focus()
    assert focused_node(page) == "rounds/draft"
    page.keyboard.press("ArrowRight")
    assert focused_node(page) == "rounds/check"
    page.keyboard.press("ArrowRight")
    assert focused_node(page) == "ship"
    page.keyboard.press("ArrowLeft")
    assert focused_node(page) in ("rounds/check", "rounds")


def test_a_step_without_a_saved_place_never_covers_one_with_one(page):
    # `review` saved where `plan` would be placed first (the first column, at the top), `plan` with no place.
    open_workflow(page, FLAT, {"version": 1, "positions": {"review": {"x": 0, "y": 0}}})
    plan, review = settled_boxes(page, ".react-flow__node[data-id='plan']", ".react-flow__node[data-id='review']")
    apart = (plan["y"] >= review["y"] + review["height"] or review["y"] >= plan["y"] + plan["height"]
             or plan["x"] >= review["x"] + review["width"] or review["x"] >= plan["x"] + plan["width"])
    assert apart, (plan, review)


def test_an_inner_step_is_drawn_below_its_loops_header(page):
    open_workflow(page, LOOPED, {"version": 1, "positions": {"rounds/draft": {"x": 24, "y": 4}}})
    head, draft = settled_boxes(page, ".react-flow__node[data-id='rounds'] .loop-head",
                                ".react-flow__node[data-id='rounds/draft']")
    assert draft["y"] >= head["y"] + head["height"] - 1, (draft, head)

"""Designing by keyboard only: a two-step repeat-until loop with a judge, built with the command palette,
Tab, Space, Enter and Delete (no mouse), then saved; and Tab reaches the canvas's nodes and edges, which
say what they are, and a focused edge goes with Delete."""
from __future__ import annotations

import re

from tests.support.browser import api, open_new_editor, wait_checked
from tests.support.editor_page import type_yaml
from tests.support.run_pages import finished_run

ACTIVE = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return 'body';
  return [a.tagName, a.id, a.getAttribute('data-id'), a.getAttribute('data-testid'), (a.textContent || '').trim().slice(0, 30)].join(' | ');
}"""


def tab_to(page, test: str, limit: int = 90, back: bool = False) -> None:
    """Presses Tab (Shift+Tab with `back`) until the focused element passes `test`, a JS predicate on it."""
    check = f"() => {{ const el = document.activeElement; return !!el && ({test})(el); }}"
    for _ in range(limit):
        if page.evaluate(check):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {test}; focus is on {page.evaluate(ACTIVE)}")


def focused_is(id_: str) -> str:
    return f"(el) => el.id === {id_!r}"


def focus_comes_back(page, field_id: str, after: str) -> None:
    """The redrawn inspector puts focus on `field_id` (a frame after the edit), not on the page body."""
    try:
        page.wait_for_function("(id) => document.activeElement?.id === id", arg=field_id, timeout=2_000)
    except Exception:
        raise AssertionError(f"focus is on {page.evaluate(ACTIVE)} after {after}, not on #{field_id}") from None


def command(page, text: str, expect: str) -> None:
    """Runs a command of the palette (Ctrl+K), checking it is the one the text picks."""
    page.keyboard.press("Control+k")
    page.get_by_test_id("command-palette").wait_for()
    page.keyboard.type(text)
    page.wait_for_function(
        """(want) => {
            const input = document.querySelector('[data-testid=command-input]');
            const opt = document.getElementById(input?.getAttribute('aria-activedescendant') || '');
            return opt?.getAttribute('data-command-id') === want;
        }""",
        arg=expect,
    )
    page.keyboard.press("Enter")
    page.get_by_test_id("command-palette").wait_for(state="detached")


def replace_text(page, field_id: str, text: str) -> None:
    """Tabs to a field, replaces its text by typing, and Tabs on (a rename or an edit lands on leaving)."""
    tab_to(page, focused_is(field_id))
    page.keyboard.press("Control+a")
    page.keyboard.type(text)
    page.keyboard.press("Tab")


def test_a_two_step_judge_loop_is_designed_with_the_keyboard_only(page):
    open_new_editor(page)

    # A repeat-until loop from the palette: it comes with one inner step, "work".
    command(page, "add repeat-until", "add:repeat")
    page.get_by_test_id("node-repeat/work").wait_for()

    # Two steps into the selected loop, each renamed and given instructions in the inspector.
    command(page, "add step", "add:step")
    page.get_by_test_id("node-repeat/inner").wait_for()
    replace_text(page, "f-id", "draft")
    page.get_by_test_id("node-repeat/draft").wait_for()
    focus_comes_back(page, "f-agent", "the rename (Tab goes on to the next field)")
    replace_text(page, "f-instructions", "Write a short draft of the answer.")

    command(page, "add step", "add:step")
    page.get_by_test_id("node-repeat/inner").wait_for()
    replace_text(page, "f-id", "review")
    page.get_by_test_id("node-repeat/review").wait_for()
    replace_text(page, "f-instructions", "Review the draft and improve it.")

    # The dependency, from the inspector's "Depends on" group: each box says which step it is.
    group = page.get_by_role("group", name="Depends on")
    assert group.is_visible()
    draft_box = group.get_by_role("checkbox", name="Depends on draft")
    assert not draft_box.is_checked()
    tab_to(page, "(el) => el.type === 'checkbox' && el.closest('label')?.textContent.includes('draft')")
    page.keyboard.press("Space")
    assert draft_box.is_checked()
    edge = page.locator(".react-flow__edge[data-id='repeat/draft->repeat/review']")
    edge.wait_for()
    assert edge.get_attribute("aria-label") == "draft to review, dependency"

    # The loop's starter step goes: focus it on the canvas and press Delete.
    tab_to(page, "(el) => el.getAttribute('data-id') === 'repeat/work'", back=True)
    page.keyboard.press("Delete")
    page.get_by_test_id("node-repeat/work").wait_for(state="detached")

    # A judge agent: the agents tab, "+ Add agent", then its name, description and prompt.
    command(page, "open agent worker", "agent:worker")
    tab_to(page, "(el) => el.tagName === 'BUTTON' && el.textContent.includes('Add agent')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#f-name')?.value === 'agent'")
    replace_text(page, "f-name", "critic")
    page.wait_for_function("() => document.querySelector('[data-testid=inspector] .agent-chip.active')?.textContent.trim() === 'critic'")
    replace_text(page, "f-description", "Judges whether the reviewed draft is good enough.")
    replace_text(page, "f-prompt", "Say done when the draft answers the question clearly.")

    # The loop uses it as its judge: choose it, clear the starter `until`, give it the judge contract.
    command(page, "go to step repeat", "step:repeat")
    tab_to(page, focused_is("f-loop.untilAgent"))
    page.keyboard.type("critic")
    page.wait_for_function("() => document.querySelector('#f-loop\\\\.untilAgent')?.value === 'critic'")
    tab_to(page, "(el) => el.getAttribute('data-testid') === 'clear-until'")
    page.keyboard.press("Enter")
    page.get_by_test_id("clear-until").wait_for(state="detached")
    focus_comes_back(page, "f-loop.untilAgent", "clearing until")
    tab_to(page, "(el) => el.tagName === 'BUTTON' && el.textContent.includes('a judge')")
    page.keyboard.press("Enter")
    page.get_by_role("button", name=re.compile("a judge")).wait_for(state="detached")
    focus_comes_back(page, "f-loop.untilAgent", "making the judge")

    # Saved with Ctrl+S; the server has the loop, both steps, the dependency and the judge, and no errors.
    wait_checked(page)
    page.keyboard.press("Control+s")
    page.wait_for_url(re.compile(r"/workflows/\d+$"))
    wait_checked(page)
    assert page.get_by_test_id("validity").inner_text() == "valid"
    assert page.get_by_test_id("error-count").inner_text().startswith("0")
    assert page.locator("[data-testid=problems] .problem-error").count() == 0
    wf_id = int(page.url.rsplit("/", 1)[1])
    saved = api(page, "GET", f"/workflows/{wf_id}")
    doc = saved["document"]
    loop_step = next(s for s in doc["steps"] if s["id"] == "repeat")
    inner = {s["id"]: s for s in loop_step["loop"]["steps"]}
    assert set(inner) == {"draft", "review"}
    assert inner["draft"]["instructions"] == "Write a short draft of the answer."
    assert inner["review"]["instructions"] == "Review the draft and improve it."
    assert inner["review"]["dependsOn"] == ["draft"]
    assert loop_step["loop"]["untilAgent"] == "critic"
    assert "until" not in loop_step["loop"]
    critic = doc["agents"]["critic"]
    assert critic["prompt"] == "Say done when the draft answers the question clearly."
    assert critic["resultSchema"]["properties"]["done"]["type"] == "boolean"


LINE = """\
name: line
steps:
  - id: draft
    instructions: Draft.
  - id: review
    dependsOn: [draft]
    instructions: Review.
"""


def test_tab_reaches_nodes_and_edges_that_say_what_they_are_and_delete_takes_a_focused_edge(page):
    open_new_editor(page)
    type_yaml(page, LINE)
    page.locator("[data-testid='node-review']").wait_for()
    wait_checked(page)
    page.get_by_test_id("toggle-yaml").click()  # the YAML view closed: keys go to the canvas
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})

    # From the toolbar, Tab goes into the canvas: the edge and both nodes are stops, each with a name.
    page.get_by_test_id("run").focus()
    reached: dict[str, str] = {}
    for _ in range(12):
        page.keyboard.press("Tab")
        name = page.evaluate(
            """() => {
                const el = document.activeElement;
                if (!el.matches('.react-flow__node, .react-flow__edge')) return null;
                const by = el.getAttribute('aria-labelledby');
                const label = by ? document.getElementById(by)?.textContent : el.getAttribute('aria-label');
                return el.getAttribute('data-id') + '=' + label;
            }"""
        )
        if name:
            key, label = name.split("=", 1)
            reached[key] = label
    assert reached.get("draft") == "step draft"
    assert reached.get("review") == "step review, depends on draft"
    assert reached.get("draft->review") == "draft to review, dependency"

    # A focused edge goes with Delete; the steps stay.
    page.locator(".react-flow__edge[data-id='draft->review']").focus()
    page.keyboard.press("Delete")
    page.locator(".react-flow__edge[data-id='draft->review']").wait_for(state="detached")
    assert page.locator(".react-flow__node").count() == 2
    wait_checked(page)
    page.get_by_test_id("toggle-yaml").click()
    assert "dependsOn" not in page.locator("[data-testid=yaml-editor]").inner_text()


def test_a_node_says_its_problems_in_words_and_the_badge_is_more_than_a_colour(page):
    open_new_editor(page)
    type_yaml(page, "name: broken\nsteps:\n  - id: lonely\n    dependsOn: [nowhere]\n    instructions: A.\n")
    page.locator("[data-testid='node-lonely']").wait_for()
    wait_checked(page)
    page.wait_for_selector("[data-testid=validity].pill-bad")

    # The name Chromium computes for the node (aria-labelledby) carries the problem count.
    node = page.get_by_role("group", name=re.compile(r"^step lonely, depends on nowhere, \d+ problems?$"))
    assert node.count() == 1
    assert node.get_attribute("data-id") == "lonely"
    hint_id = page.locator(".react-flow__node[data-id='lonely']").get_attribute("aria-describedby") or ""
    hint = page.evaluate("(id) => document.getElementById(id)?.textContent", hint_id)
    assert hint.startswith("Enter opens it in the inspector. Delete removes it.")

    badge = page.get_by_test_id("node-lonely").get_by_test_id("error-badge")
    number = re.search(r"\d+", badge.inner_text())
    assert number, badge.inner_text()
    count = int(number.group())
    assert badge.inner_text().startswith("✕"), "the badge shows a glyph, not only a red dot"
    assert f"{count} problem" in badge.text_content()

    # The inspector's dependency group names the missing step in words, not only in red.
    page.get_by_test_id("toggle-yaml").click()
    page.locator(".react-flow__node[data-id='lonely']").focus()
    page.keyboard.press("Enter")
    missing = page.get_by_role("group", name="Depends on").get_by_role("checkbox", name=re.compile("^Depends on nowhere"))
    assert missing.is_checked()
    assert "not a step of this scope" in page.get_by_test_id("depends-on").inner_text()


def test_a_finished_run_tells_iterations_verdicts_and_node_states_in_glyphs_and_words(page):
    finished_run(page)
    cells = page.locator("[data-testid='iterations-polish'] [data-testid=iteration-cell]")
    cells.nth(3).wait_for()
    assert cells.count() == 4
    # Each cell: a glyph beside its colour, and its full story as its name.
    glyphs = [cells.nth(i).locator(".iter-verdict").inner_text() for i in range(4)]
    assert glyphs[:3] == ["↻"] * 3 and glyphs[3] == "⚑", glyphs  # the judge said done: not ✓, which means finished
    strip = page.get_by_role("group", name="Iterations of polish")
    first = strip.get_by_role("button", name=re.compile(r"^Round 1, completed( in [^,]+)?, judge said not done"))
    last = strip.get_by_role("button", name=re.compile(r"^Round 4, completed( in [^,]+)?, judge said done"))
    assert first.count() == 1 and last.count() == 1
    # A node's name ends with its run status, which the node also shows as a word.
    publish = page.get_by_role("group", name=re.compile(r"^step publish\b.*, completed( in [^,]+)?$"))
    assert publish.count() == 1
    assert page.get_by_test_id("node-publish").get_by_test_id("node-status").inner_text().startswith("completed")

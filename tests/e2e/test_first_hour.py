"""A new user's first hour, end to end in the browser, with the UI only: build a draft -> critic loop with a
judge from the palette, break it with CEL that cannot parse and fix it through the problems panel, run it
with a script, see which step's output each iteration carries, run again with the same script, export."""
from __future__ import annotations

from ruamel.yaml import YAML

from tests.support.browser import api, open_new_editor, wait_checked
from tests.support.editor_page import type_script

SCRIPT = """\
latency: 0
replies:
  draft: ["first draft", "second draft"]
  critic: ["review of the first draft", "review of the second draft"]
  judge:
    - {content: "not yet", result: {done: false, reason: "too thin"}}
    - {content: "good", result: {done: true, reason: "reads well"}}
"""


def click_node(page, key: str) -> None:
    page.locator(f"[data-testid='node-{key}'] .node-title").first.click()


def rename_selected_step(page, new_id: str) -> None:
    field = page.locator("#f-id")
    field.fill(new_id)
    field.press("Enter")


def type_cel(page, field_id: str, text: str) -> None:
    box = page.locator(f"#{field_id}")  # the CEL editor's content element carries the field's id
    box.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def test_a_first_hour_from_an_empty_canvas_to_an_export(page):
    open_new_editor(page)

    # Build: a judge loop from the palette, a second inner step, both renamed, critic after draft.
    page.get_by_test_id("palette-judge").click()
    page.locator("[data-testid='node-refine/work']").wait_for()
    click_node(page, "refine")
    page.get_by_test_id("palette-step").click()
    page.locator("[data-testid='node-refine/inner']").wait_for()
    click_node(page, "refine/work")
    rename_selected_step(page, "draft")
    page.locator("[data-testid='node-refine/draft']").wait_for()
    click_node(page, "refine/inner")
    rename_selected_step(page, "critic")
    page.locator("[data-testid='node-refine/critic']").wait_for()
    page.locator("#f-dependsOn label", has_text="draft").locator("input").check()
    wait_checked(page)
    # The loop says what it hands on: cumulative, every inner step of every round (zenflow's runner's rule).
    page.wait_for_function("() => (document.querySelector(\"[data-testid='iteration-output-refine']\")?.innerText || '').includes('every step')")

    # Break it: a condition that cannot parse. It blocks Run, and the button says why and where.
    type_cel(page, "f-condition", "steps.draft.content.contains(")
    wait_checked(page)
    problem = page.get_by_test_id("problem").filter(has_text="not valid CEL")
    problem.wait_for()
    assert "syntax error at column" in problem.inner_text()
    assert problem.get_by_test_id("blocks-run").count() == 1
    run = page.get_by_test_id("run")
    assert run.is_disabled()
    assert "syntax error at column" in (run.get_attribute("title") or "")
    assert "can't run" in page.get_by_test_id("validity").inner_text()
    # The panel counts it as what it does, not as one more warning.
    assert page.get_by_test_id("blocker-count").inner_text() == "1 blocks Run"
    assert page.get_by_test_id("warning-count").inner_text() == "0 warnings"

    # Fix it from the problems panel: the problem takes us to the field.
    click_node(page, "refine/draft")
    problem.click()
    page.wait_for_function("() => document.activeElement && !!document.activeElement.closest(\"[data-field='condition']\")")
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text("steps.draft.status == 'completed'")
    wait_checked(page)
    page.wait_for_selector("[data-testid=run]:not([disabled])")
    assert page.get_by_test_id("validity").inner_text() == "valid"

    # Run it with a script.
    run.click()
    page.get_by_test_id("run-dialog").wait_for()
    type_script(page, SCRIPT)
    page.get_by_test_id("run-start").click()
    page.wait_for_url("**/runs/*")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    first = page.url.rsplit("/", 1)[1]

    # Which step's output each iteration carries: the critic's, said in the label, and shown.
    click_node(page, "refine")
    label = page.get_by_test_id("loop-output-label")
    label.wait_for()
    assert "Cumulative output: every inner step of every finished iteration" in label.inner_text()
    # As zenflow's runner writes it: every inner step of every round, headed by round and step.
    text = page.get_by_test_id("loop-output-refine").inner_text()
    for round_, (draft, review) in enumerate([("first draft", "review of the first draft"),
                                              ("second draft", "review of the second draft")], start=1):
        assert f"## Iteration {round_}\n### draft\n{draft}" in text, text
        assert f"### critic\n{review}" in text, text
    # Iteration chips are legible (11 px or more on screen) and count from 1.
    cells = page.locator(".iter-cell")
    assert cells.count() == 2
    assert cells.first.locator(".iter-n").inner_text().strip() == "1"
    px = page.evaluate("""() => {
        const el = document.querySelector('.iter-cell');
        const t = getComputedStyle(document.querySelector('.react-flow__viewport') || document.body).transform;
        const zoom = el.closest('.react-flow__viewport') && t !== 'none' ? new DOMMatrixReadOnly(t).a : 1;
        return parseFloat(getComputedStyle(el).fontSize) * zoom;
    }""")
    assert px >= 11, px

    # Run again, one click, with the same script.
    page.get_by_test_id("run-again").click()
    page.wait_for_function(f"() => !location.pathname.endsWith({first!r}) && location.pathname.startsWith('/runs/')")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    second = page.url.rsplit("/", 1)[1]
    again = api(page, "GET", f"/runs/{second}")
    assert again["script"]["replies"]["critic"] == ["review of the first draft", "review of the second draft"]

    # Export: the YAML is the loop that was built, and it validates.
    page.goto(f"/workflows/{again['workflow_id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    page.get_by_test_id("export").click()
    with page.expect_download() as download:
        page.get_by_test_id("export-yaml").click()
    text = download.value.path().read_text(encoding="utf-8")
    exported = YAML(typ="safe").load(text)
    refine = next(s for s in exported["steps"] if s["id"] == "refine")
    loop = refine["loop"]
    assert loop["untilAgent"] == "judge" and loop["outputMode"] == "cumulative"
    assert [s["id"] for s in loop["steps"]] == ["draft", "critic"]
    assert loop["steps"][1]["dependsOn"] == ["draft"]
    checked = api(page, "POST", "/validate", {"source": text})
    assert checked["valid"] and checked["runnable"], checked["errors"] + checked["warnings"]

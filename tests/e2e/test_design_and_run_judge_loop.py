"""A user builds a multi-step repeat-until loop with a judge by UI actions only,
sees a validation error come and go, exports valid YAML, saves, runs it with a
script and watches iterations, verdicts and the cumulative output arrive."""
from __future__ import annotations

import json
import re

import yaml
from jsonschema import Draft202012Validator

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import show_yaml
from tests.support.upstream_spec import SPEC

SCRIPT = """\
latency: 0.25
replies:
  start: "Plan: write a haiku about loops."
  work: ["draft one", "draft two"]
  review: ["needs work", "looks good"]
  judge:
    - {content: "Not yet.", result: {done: false, reason: "too thin"}}
    - {content: "Ship it.", result: {done: true, reason: "complete"}}
"""


def node(page, key: str):
    return page.locator(f"[data-testid='node-{key}']")


def handle(page, key: str, kind: str):
    return page.locator(f".react-flow__node[data-id='{key}'] > .react-flow__handle.{kind}, "
                        f".react-flow__node[data-id='{key}'] .react-flow__handle.{kind}").first


def drag_connect(page, source: str, target: str) -> None:
    """Draws a dependency by dragging from one node's output handle to another's input handle."""
    a = handle(page, source, "source").bounding_box()
    b = handle(page, target, "target").bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2 + 10, steps=8)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def select_node(page, key: str) -> None:
    node(page, key).locator(".node-title").first.click()
    page.wait_for_selector("#f-id")


def set_text(page, selector: str, value: str) -> None:
    field = page.locator(selector)
    field.click()
    field.fill(value)


def yaml_text(page) -> str:
    show_yaml(page)
    return page.locator("[data-testid=yaml-editor]").inner_text()


def test_build_validate_export_save_and_run_a_judge_loop(page, tmp_path):
    open_new_editor(page)

    # Name the workflow (inspector, workflow tab).
    set_text(page, "#f-name", "haiku-loop")

    # A judge-driven loop from the palette: adds the judge agent with its done/reason contract.
    page.get_by_test_id("palette-judge").click()
    node(page, "refine").wait_for()
    node(page, "refine/work").wait_for()

    # A second inner step, renamed to `review`, with its own instructions and agent.
    node(page, "refine").locator(".loop-add").click()
    node(page, "refine/inner").wait_for()
    set_text(page, "#f-id", "review")
    page.keyboard.press("Enter")
    node(page, "refine/review").wait_for()
    set_text(page, "#f-instructions", "Review the draft. Say LGTM when it is good.")
    page.locator("#f-agent").select_option("worker")

    # Dependencies drawn on the canvas: work -> review inside the loop, start -> refine outside.
    page.get_by_test_id("fit").click()
    page.wait_for_timeout(300)
    drag_connect(page, "refine/work", "refine/review")
    page.wait_for_selector(".react-flow__edge[data-id='refine/work->refine/review'], [data-id='refine/work->refine/review']",
                           state="attached")
    drag_connect(page, "start", "refine")
    page.wait_for_selector("[data-id='start->refine']", state="attached")
    wait_checked(page)
    assert page.get_by_test_id("validity").inner_text() == "valid"

    # A validation error appears as the user types a bad duration, with a badge on the node ...
    select_node(page, "refine")
    set_text(page, "[id='f-loop.delay']", "ten seconds")
    wait_checked(page)
    problem = page.get_by_test_id("problem").first
    problem.wait_for()
    assert "error" in page.get_by_test_id("validity").inner_text()
    assert node(page, "refine").get_by_test_id("error-badge").is_visible()
    assert page.get_by_test_id("export").is_disabled()
    # ... clicking it selects the node and the field ...
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})
    problem.click()
    page.wait_for_selector("[data-field='loop.delay'] .field-problem.error")
    assert page.evaluate("document.activeElement && document.activeElement.id") == "f-loop.delay"
    # ... and disappears once fixed.
    set_text(page, "[id='f-loop.delay']", "0s")
    wait_checked(page)
    assert page.get_by_test_id("problem").count() == 0
    assert page.get_by_test_id("validity").inner_text() == "valid"
    assert node(page, "refine").get_by_test_id("error-badge").count() == 0

    # The YAML view follows the canvas (the server renders it just after its verdict).
    show_yaml(page)
    page.wait_for_function(
        "() => { const t = document.querySelector('[data-testid=yaml-editor]').innerText;"
        " return t.includes('untilAgent: judge') && t.includes('id: review') && t.includes('delay: 0s'); }")
    assert "dependsOn" in yaml_text(page)

    # Export: the downloaded file is valid against the upstream JSON Schema.
    page.get_by_test_id("export").click()
    with page.expect_download() as info:
        page.get_by_test_id("export-yaml").click()
    exported = yaml.safe_load(info.value.path().read_text())
    schema = json.loads((SPEC / "schema.json").read_text())
    errors = list(Draft202012Validator(schema).iter_errors(exported))
    assert not errors, [e.message for e in errors]
    loop_step = next(s for s in exported["steps"] if s["id"] == "refine")
    assert loop_step["dependsOn"] == ["start"]
    assert loop_step["loop"]["untilAgent"] == "judge"
    assert [s["id"] for s in loop_step["loop"]["steps"]] == ["work", "review"]
    assert loop_step["loop"]["steps"][1]["dependsOn"] == ["work"]
    judge = exported["agents"]["judge"]["resultSchema"]
    assert judge["properties"]["done"] == {"type": "boolean"} and "done" in judge["required"]

    # Save (Ctrl+S): a new workflow, the dirty marker goes away.
    assert page.get_by_test_id("dirty").is_visible()
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")
    page.wait_for_url(re.compile(r"/workflows/\d+$"))
    page.get_by_test_id("dirty").wait_for(state="detached")

    # Run it with a script edited in the run dialog.
    page.get_by_test_id("run").click()
    editor = page.locator("[data-testid=run-script]")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(SCRIPT)
    page.get_by_test_id("run-start").click()
    page.wait_for_url(re.compile(r"/runs/[0-9a-fA-F-]+$"))

    # Live: the first verdict shows while the run is still going.
    verdicts = page.get_by_test_id("verdict")
    verdicts.first.wait_for(timeout=20_000)
    assert page.get_by_test_id("run-status").inner_text() in ("running", "queued")
    assert "not done" in verdicts.first.inner_text() and "too thin" in verdicts.first.inner_text()
    # What judging the round took, beside its verdict (the judge's tokens; the simulated model has no price).
    assert re.search(r"judge: [0-9,]+ tokens", verdicts.first.get_by_test_id("verdict-cost").inner_text())

    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)
    cells = page.locator("[data-testid='iterations-refine'] [data-testid=iteration-cell]")
    assert cells.count() == 2
    assert verdicts.count() == 2
    assert "done" in verdicts.nth(1).inner_text() and "complete" in verdicts.nth(1).inner_text()
    cumulative = page.get_by_test_id("cumulative-refine").inner_text()
    assert "needs work" in cumulative and "looks good" in cumulative
    assert cumulative.index("needs work") < cumulative.index("looks good")
    assert node(page, "refine").get_by_test_id("node-status").inner_text().startswith("completed")

    # An iteration opens from the strip: its inner steps' output and the prompt the agent saw.
    cells.first.click()
    details = page.get_by_test_id("iteration-details")
    details.wait_for()
    assert "draft one" in details.inner_text()
    details.locator("summary", has_text="Prompt the agent saw").first.click()
    assert details.get_by_test_id("prompt").first.inner_text().strip() != ""

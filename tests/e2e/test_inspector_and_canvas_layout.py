"""Readable at 1280x800: a loop's own settings lead its inspector, palette
items keep the graph compact, long names do not break the workflows list."""
from __future__ import annotations

from tests.support.browser import api, open_new_editor, wait_checked
from tests.support.editor_page import type_yaml


def node(page, key: str):
    return page.locator(f"[data-testid='node-{key}']")


def test_a_loops_settings_come_before_the_general_step_fields(page):
    open_new_editor(page)
    page.get_by_test_id("palette-judge").click()
    node(page, "refine").wait_for()
    node(page, "refine").locator(".loop-head .node-title").click()
    heads = page.locator(".insp-section-head h4").all_inner_texts()
    assert heads[:3] == ["Judge loop (repeat-until)", "Loop settings", "Step settings"], heads
    for field in ("#f-loop\\.maxIterations", "#f-loop\\.untilAgent"):
        assert page.locator(field).bounding_box()["y"] < page.locator("#f-dependsOn").bounding_box()["y"]

    # A plain step keeps one section.
    page.get_by_test_id("palette-step").click()
    wait_checked(page)
    heads = page.locator(".insp-section-head h4").all_inner_texts()
    assert heads[0] == "Step" and "Loop settings" not in heads, heads


CHIPS_YAML = """\
name: chips
agents:
  writer:
    description: Writes.
steps:
  - id: plan
    agent: writer
    instructions: Plan the work in a few short bullet points, each one a task for later.
  - id: guarded
    agent: writer
    dependsOn: [plan]
    condition: "steps.plan.status == 'completed' && size(steps.plan.content) > 10"
    timeout: 10m
    retries: 2
    instructions: Write carefully, then check the draft against the outline twice.
  - id: second
    agent: writer
    dependsOn: [plan]
    timeout: 5m
    retries: 1
    instructions: Write a second version of the draft in a different voice.
  - id: third
    agent: writer
    dependsOn: [plan]
    instructions: Write a third version.
"""


def boxes(page):
    out = {}
    for key in ("plan", "guarded", "second", "third"):
        out[key] = node(page, key).bounding_box()
    return out


def overlapping(b: dict) -> list[tuple[str, str]]:
    keys = list(b)
    bad = []
    for i, a in enumerate(keys):
        for c in keys[i + 1:]:
            p, q = b[a], b[c]
            if p["x"] < q["x"] + q["width"] and q["x"] < p["x"] + p["width"] and p["y"] < q["y"] + q["height"] and q["y"] < p["y"] + p["height"]:
                bad.append((a, c))
    return bad


def test_tidy_up_leaves_room_for_nodes_with_chips(page):
    open_new_editor(page)
    type_yaml(page, CHIPS_YAML)
    node(page, "third").wait_for()
    wait_checked(page)
    page.get_by_role("button", name="Tidy up").click()
    page.wait_for_timeout(600)
    b = boxes(page)
    assert not overlapping(b), b
    # The chip glyphs are text, never an emoji that may be missing.
    assert "timeout" in node(page, "guarded").inner_text()


def test_palette_items_keep_the_graph_compact_and_readable(page):
    open_new_editor(page)
    for kind in ("step", "step", "step", "step", "forEach", "step"):
        page.get_by_test_id(f"palette-{kind}").click()
    wait_checked(page)
    page.get_by_test_id("fit").click()
    page.wait_for_timeout(400)
    nodes = page.locator(".react-flow__node")
    assert nodes.count() >= 7  # the forEach brings an inner step
    zoom = page.evaluate(
        "() => new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')).transform).a")
    # One column of seven nodes fits at ~0.5; a compact graph stays readable.
    assert zoom >= 0.6, zoom
    b = {str(i): nodes.nth(i).bounding_box() for i in range(nodes.count())}
    top = {k: v for k, v in b.items() if "loop" not in (nodes.nth(int(k)).get_attribute("class") or "")}
    assert len({round(v["x"]) for v in top.values()}) >= 2, "everything in one column"


def test_yaml_panel_starts_closed_on_a_narrow_window_and_remembers_the_choice(page):
    open_new_editor(page)
    assert page.locator("[data-testid=yaml-editor]").count() == 0
    toggle = page.get_by_test_id("toggle-yaml")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    page.locator("[data-testid=yaml-editor]").wait_for()
    open_new_editor(page)  # a new page load
    page.locator("[data-testid=yaml-editor]").wait_for()
    assert page.get_by_test_id("toggle-yaml").get_attribute("aria-pressed") == "true"


def test_a_very_long_workflow_name_ends_in_an_ellipsis_in_the_lists(page):
    page.goto("/")
    long_name = "a-very-long-workflow-name-" * 12
    saved = api(page, "POST", "/workflows", {"document": {"name": long_name, "steps": [{"id": "start", "instructions": "Go."}]}})
    long_name = saved["name"]  # as the server keeps it
    assert len(long_name) > 100
    api(page, "POST", "/workflows", {"document": {"name": "short", "steps": [{"id": "start", "instructions": "Go."}]}})
    page.goto("/")
    table = page.get_by_test_id("workflow-table")
    table.wait_for()
    link = table.locator(f"a[title='{long_name}']")
    assert link.inner_text() == long_name
    short = table.get_by_role("link", name="short", exact=True)
    long_row = link.locator("xpath=ancestor::tr").bounding_box()
    short_row = short.locator("xpath=ancestor::tr").bounding_box()
    assert abs(long_row["height"] - short_row["height"]) < 2, (long_row, short_row)
    assert long_row["width"] <= 1280

"""A layout that holds at 1280x800 and 1440x900: on every page, tab and dialog, no control or tab lies outside
the window or outside the box that holds it, no text is clipped without a title tooltip (nor spills out of its
box), and every canvas opens fitted, its first node not cut off at the left (tests/support/layout_check.py)."""
from __future__ import annotations

import pytest

from tests.support.accessibility import seed, settle
from tests.support.browser import api
from tests.support.evaluations import evaluations_with_results
from tests.support.layout_check import assert_layout_holds, layout_problems

VIEWPORTS = {"1280x800": {"width": 1280, "height": 800}, "1440x900": {"width": 1440, "height": 900}}
INSPECTOR_TABS = ("Workflow", "Agents", "Options", "Includes", "Files")
RUN_TABS = ("live", "details", "tools", "messages", "workspace", "metrics", "rounds", "events")


@pytest.fixture(scope="module")
def seeded(browser, server, auth_state) -> dict:
    ctx = browser.new_context(viewport=VIEWPORTS["1280x800"], storage_state=auth_state, base_url=server)
    try:
        page = ctx.new_page()
        seeded = seed(page)
        seeded["big_run"] = big_run(page)
        seeded["evaluations"] = evaluations_with_results(page, "layout-evaluations-of-a-judged-loop")
        return seeded
    finally:
        ctx.close()


def big_run(page) -> str:
    """A forEach of 520 items (the big-run page), every tenth failing and skipped; started, not waited for."""
    source = ("version: 1\nname: layout-big-foreach-with-a-long-name\nsteps:\n  - id: each\n    instructions: go\n"
              f"    loop: {{forEach: {list(range(520))}, maxConcurrency: 50}}\n")
    wf = api(page, "POST", "/workflows", {"source": source})
    script = {"latency": 0.005, "replies": {"each": [f"done {i}" for i in range(9)] + [{"error": "broken item"}]}}
    run = api(page, "POST", "/runs", {"workflow_id": wf["id"], "provider": "simulated", "script": script,
                                     "policies": {"on_iteration_error": "skip"}})
    return run["id"]


@pytest.fixture(params=list(VIEWPORTS))
def sized(request, browser, server, auth_state):
    """A signed-in page at one of the two window sizes."""
    ctx = browser.new_context(viewport=VIEWPORTS[request.param], base_url=server, storage_state=auth_state)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    ctx.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def open_editor(page, seeded) -> None:
    page.goto(f"/workflows/{seeded['workflow']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.wait_for_selector("[data-testid=problems][data-state=idle]")


def inspector_tab(name: str):
    def show(page, seeded) -> None:
        open_editor(page, seeded)
        page.get_by_test_id("inspector").get_by_role("tab", name=name).click()
        page.wait_for_selector(f"[data-testid=inspector] [role=tab][aria-selected=true]:text-is('{name}')")
        if name == "Files":
            page.get_by_test_id("folder-panel").wait_for()

    return show


def show_editor_yaml(page, seeded) -> None:
    open_editor(page, seeded)
    if page.locator("[data-testid=yaml-editor]").count() == 0:
        page.get_by_test_id("toggle-yaml").click()
    page.locator("[data-testid=yaml-editor]").wait_for()


def show_editor_loop(page, seeded) -> None:
    open_editor(page, seeded)
    page.locator("[data-testid='node-polish'] .node-title").first.click()
    page.get_by_test_id("inspector").get_by_text("Max iterations").first.wait_for()


def show_editor_step(page, seeded) -> None:
    open_editor(page, seeded)
    page.locator("[data-testid='node-publish'] .node-title").first.click()
    page.get_by_test_id("inspector").locator("#f-dependsOn").wait_for()


def show_new_editor(page, seeded) -> None:
    page.goto("/workflows/new")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")


def editor_dialog(opener, testid: str):
    def show(page, seeded) -> None:
        open_editor(page, seeded)
        opener(page)
        page.get_by_test_id(testid).wait_for()

    return show


def show_commands(page, seeded) -> None:
    open_editor(page, seeded)
    page.locator("[data-testid=canvas] .react-flow__pane").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+k")
    page.get_by_role("dialog").wait_for()


def show_export_menu(page, seeded) -> None:
    open_editor(page, seeded)
    page.get_by_test_id("export").click()
    page.get_by_test_id("export-yaml").wait_for()


def show_shortcuts(page, seeded) -> None:
    open_editor(page, seeded)
    page.locator(".react-flow__node[data-id='publish']").focus()
    page.keyboard.press("?")
    page.get_by_test_id("shortcut-help").wait_for()


def show_inspector_collapsed(page, seeded) -> None:
    show_editor_yaml(page, seeded)
    page.get_by_test_id("collapse-inspector").click()
    page.get_by_test_id("expand-inspector").wait_for()


def show_workspace_menu(page, seeded) -> None:
    page.goto("/")
    page.get_by_test_id("workspace-switcher").click()
    page.get_by_test_id("workspace-menu").wait_for()


def show_workflows(page, seeded) -> None:
    page.goto("/")
    # Other tests on the shared server seed the same workflow: any of its rows will do.
    row = page.locator("tr", has=page.get_by_role("link", name="audited-polish", exact=True)).first
    row.get_by_role("button", name="History").click()
    page.get_by_test_id("versions").locator("li").nth(1).wait_for()


def show_import_clash(page, seeded, tmp_path) -> None:
    page.goto("/")
    page.get_by_role("link", name="audited-polish", exact=True).first.wait_for()
    path = tmp_path / "audited-polish.yaml"
    path.write_text("name: audited-polish\nsteps:\n  - id: only\n    instructions: Go.\n")
    page.get_by_test_id("list-import-file").set_input_files(str(path))
    page.get_by_test_id("import-clash").wait_for()


def page_dialog(opener_testid: str, dialog):
    def show(page, seeded) -> None:
        page.goto("/")
        page.get_by_test_id(opener_testid).click()
        page.get_by_role("dialog", name=dialog).wait_for() if isinstance(dialog, str) else page.get_by_test_id(dialog[0]).wait_for()

    return show


def show_runs(page, seeded) -> None:
    page.goto("/runs")
    page.locator("tr", has_text="audited-polish").first.wait_for()


def show_workspace_settings(page, seeded) -> None:
    page.goto("/workspaces")
    page.locator(".ws-settings").wait_for()
    page.get_by_test_id("ws-tracing-form").wait_for()  # loaded on its own: checked with the rest


def open_run(page, seeded) -> None:
    page.goto(f"/runs/{seeded['run']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=30_000)


def run_tab(tab: str):
    def show(page, seeded) -> None:
        open_run(page, seeded)
        if tab == "details":  # a loop chosen, so Details shows its rounds and verdicts
            page.locator("[data-testid='node-polish'] .node-title").first.click()
        page.get_by_test_id(f"run-tab-{tab}").click()
        page.wait_for_selector(f"[data-testid=run-tab-{tab}][aria-selected=true]")

    return show


def show_run_panel_collapsed(page, seeded) -> None:
    open_run(page, seeded)
    page.get_by_test_id("collapse-run-panel").click()
    page.get_by_test_id("expand-run-panel").wait_for()


def show_compare_picker(page, seeded) -> None:
    open_run(page, seeded)
    page.get_by_test_id("compare-with").click()
    page.get_by_test_id("compare-picker").wait_for()


def show_big_run(page, seeded) -> None:
    page.goto(f"/runs/{seeded['big_run']}")
    page.wait_for_selector("[data-testid=big-run][data-status=completed]", timeout=90_000)


def show_fork_dialog(page, seeded) -> None:
    open_run(page, seeded)
    page.locator("[data-testid='node-polish'] .node-title").first.click()
    page.get_by_test_id("run-tab-details").click()
    page.get_by_test_id("fork-verdict-polish.0").click()
    page.get_by_test_id("fork-dialog").wait_for()


def show_playground_dialog(page, seeded) -> None:
    open_run(page, seeded)
    page.locator("[data-testid='node-publish'] .node-title").first.click()
    page.get_by_test_id("run-tab-details").click()
    page.get_by_test_id("playground-publish").click()
    page.get_by_test_id("playground-dialog").get_by_test_id("playground-original").wait_for()


def show_versions_compare(page, seeded) -> None:
    page.goto(f"/workflows/{seeded['workflow']}/compare")
    page.get_by_test_id("change-item").first.wait_for()
    page.get_by_test_id("compare-canvas").locator(".react-flow__node").first.wait_for()


def show_runs_compare(page, seeded) -> None:
    page.goto(f"/runs/{seeded['run']}/compare/{seeded['run']}")
    page.get_by_test_id("run-compare").wait_for()


def show_evaluations(page, seeded) -> None:
    """The Evaluations page with its dataset, the later experiment's results and trials, the new-dataset form open,
    the two experiments compared and a trial's rounds open for labelling: everything the page can show at once."""
    evals = seeded["evaluations"]
    first, last = evals["experiments"]
    page.goto(f"/workflows/{evals['workflow']}/evaluations?experiment={last}")
    page.get_by_test_id("datasets").locator("tbody tr").first.wait_for()
    page.get_by_test_id("experiment-results").get_by_role("heading", name=f"Experiment #{last}: completed").wait_for(timeout=60_000)
    page.get_by_test_id("evaluations-page").locator("summary", has_text="New dataset").click()
    page.get_by_test_id("create-dataset").wait_for()
    page.get_by_test_id("compare-baseline").select_option(str(first))
    page.get_by_test_id("compare-experiments").click()
    page.get_by_test_id("comparison-verdict").wait_for()
    page.get_by_test_id("label-rounds").first.click()
    page.get_by_test_id("round-focus").wait_for()
    page.get_by_test_id("judge-agreement-now").wait_for()


SCENES = {
    "workflows-list": show_workflows,
    "import-clash-dialog": show_import_clash,
    "folder-import-dialog": page_dialog("import-folder", ("bundle-import",)),
    "other-system-import-dialog": page_dialog("import-other", "Import from Runsight or Coqui"),
    "workspace-menu": show_workspace_menu,
    "runs-list": show_runs,
    "evaluations": show_evaluations,
    "workspace-settings": show_workspace_settings,
    "new-editor": show_new_editor,
    **{f"editor-tab-{t.lower()}": inspector_tab(t) for t in INSPECTOR_TABS},
    "editor-yaml": show_editor_yaml,
    "editor-loop-selected": show_editor_loop,
    "editor-step-selected": show_editor_step,
    "editor-import-dialog": editor_dialog(lambda p: p.get_by_role("button", name="Import").click(), "import-dialog"),
    "editor-run-dialog": editor_dialog(lambda p: p.get_by_test_id("run").click(), "run-dialog"),
    "editor-commands": show_commands,
    "editor-export-menu": show_export_menu,
    "editor-shortcuts": show_shortcuts,
    "editor-inspector-collapsed": show_inspector_collapsed,
    **{f"run-tab-{t}": run_tab(t) for t in RUN_TABS},
    "fork-dialog": show_fork_dialog,
    "playground-dialog": show_playground_dialog,
    "run-panel-collapsed": show_run_panel_collapsed,
    "run-compare-picker": show_compare_picker,
    "big-run": show_big_run,
    "versions-compare": show_versions_compare,
    "runs-compare": show_runs_compare,
}


@pytest.mark.parametrize("scene", list(SCENES))
def test_the_layout_holds(sized, seeded, scene, tmp_path):
    show = SCENES[scene]
    if show is show_import_clash:
        show(sized, seeded, tmp_path)
    else:
        show(sized, seeded)
    settle(sized)
    assert_layout_holds(sized, scene)


BROKEN = """
<style>body { margin: 0; font: 14px sans-serif; } .tabs { display: flex; width: 200px; overflow: hidden; }
.tab { flex: none; width: 90px; } .cut { width: 60px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.btn { width: 50px; white-space: nowrap; } .react-flow { position: relative; width: 300px; height: 200px; overflow: hidden; margin-left: 20px; }
.react-flow__node { position: absolute; left: -40px; top: 10px; width: 100px; height: 40px; }</style>
<div class="tabs" role="tablist"><button class="tab" role="tab">One</button><button class="tab" role="tab">Two</button>
<button class="tab" role="tab">Files</button></div>
<div class="cut">a name far too long for its box</div><div class="cut" title="the whole name">a titled name far too long</div>
<button class="btn">Add as a new version</button>
<div class="react-flow"><div class="react-flow__viewport"><div class="react-flow__node">first</div></div></div>
"""


def test_the_layout_check_can_fail(page):
    page.set_content(BROKEN)
    found = "\n".join(layout_problems(page))
    assert '"Files" is cut off by' in found, found
    assert '"a name far too long for its box": clipped text' in found, found
    assert "a titled name" not in found, found
    assert '"Add as a new version": its text overflows its box' in found, found
    assert '"first" is not fitted in its canvas' in found, found

"""Workflows as folders in Chromium: import upstream's examples folder as a zip (asked for the main workflow),
see what each include step runs, edit a prompt file in the Files tab (a new version), and download the folder."""
from __future__ import annotations

import io
import zipfile

from tests.support.browser import api, wait_canvas_still, wait_checked
from tests.support.editor_page import blank_canvas
from tests.support.upstream_spec import SPEC

EXAMPLES = SPEC / "examples"


def examples_zip(tmp_path) -> str:
    target = tmp_path / "examples.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(EXAMPLES.rglob("*")):
            if path.is_file():
                zf.write(path, "examples/" + str(path.relative_to(EXAMPLES)))
    return str(target)


def test_import_a_folder_edit_a_prompt_file_and_download_it(page, tmp_path):
    page.goto("/")
    page.get_by_test_id("import-folder").click()
    dialog = page.get_by_test_id("bundle-import")
    page.get_by_test_id("bundle-zip-input").set_input_files(examples_zip(tmp_path))
    dialog.get_by_text("Which is the main workflow of examples.zip?").wait_for()
    assert dialog.get_by_test_id("bundle-all").count() == 1  # several top-level workflows: each may be its own
    dialog.get_by_label("include-reuse.yaml").check()
    dialog.get_by_test_id("bundle-import-go").click()
    page.wait_for_url("**/workflows/*")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    workflow_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])
    assert page.locator("[data-testid='node-deploy-staging']").count() == 1

    # What the include steps run: the folder's own file.
    blank_canvas(page)
    page.get_by_role("tab", name="Includes").click()
    targets = page.get_by_test_id("include-targets")
    targets.wait_for()
    assert "deploy-staging runs workflows/deploy.yaml from this workflow's folder" in targets.inner_text()

    # The folder: edit a prompt file, saved as a new version.
    page.get_by_role("tab", name="Files").click()
    panel = page.get_by_test_id("folder-panel")
    panel.locator("[data-testid=tree-file][data-path='prompts/coder.md']").click()
    editor = panel.get_by_test_id("folder-file-editor")
    editor.wait_for()
    assert editor.inner_text().strip() == (EXAMPLES / "prompts/coder.md").read_text().strip()
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type("\nBe brief.")
    panel.get_by_test_id("folder-save-file").click()
    notice = panel.get_by_test_id("folder-notice")
    notice.wait_for()
    assert "Saved prompts/coder.md. Version 2 saved." in notice.inner_text()
    assert api(page, "GET", f"/workflows/{workflow_id}")["version"] == 2

    # A binary context file shows as such.
    panel.locator("[data-testid=tree-file][data-path='fixtures/sample.png']").click()
    assert "PNG image" in panel.get_by_test_id("folder-binary").inner_text()

    # The download holds the edited prompt and every other file byte for byte.
    with page.expect_download() as download:
        panel.get_by_test_id("folder-download").click()
    data = download.value.path().read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
        assert zf.read("prompts/coder.md").decode().endswith("Be brief.")
        assert zf.read("workflows/deploy.yaml") == (EXAMPLES / "workflows/deploy.yaml").read_bytes()
        assert zf.read("include-reuse.yaml") == (EXAMPLES / "include-reuse.yaml").read_bytes()
    assert {"fixtures/sample.png", "instructions/plan-feature.md"} <= names
    # Export offers the same folder, beside YAML and JSON.
    page.get_by_test_id("export").click()
    with page.expect_download() as exported:
        page.get_by_test_id("export-folder").click()
    with zipfile.ZipFile(io.BytesIO(exported.value.path().read_bytes())) as zf:
        assert set(zf.namelist()) == names


def test_importing_every_example_lists_what_was_made(page, tmp_path):
    page.goto("/")
    page.get_by_test_id("import-folder").click()
    dialog = page.get_by_test_id("bundle-import")
    page.get_by_test_id("bundle-zip-input").set_input_files(examples_zip(tmp_path))
    dialog.get_by_test_id("bundle-all").check()
    dialog.get_by_test_id("bundle-import-go").click()
    made = dialog.get_by_test_id("bundle-made")
    made.wait_for()
    expected = len([p for p in EXAMPLES.glob("*") if p.suffix in (".yaml", ".yml", ".json")])
    assert made.locator("li").count() == expected
    assert "include-reuse" in made.inner_text()


def import_folder(page, tmp_path, main: str) -> int:
    """Imports upstream's examples folder with `main` as the main workflow; returns the new workflow's id."""
    page.goto("/")
    page.get_by_test_id("import-folder").click()
    dialog = page.get_by_test_id("bundle-import")
    page.get_by_test_id("bundle-zip-input").set_input_files(examples_zip(tmp_path))
    dialog.get_by_label(main).check()
    dialog.get_by_test_id("bundle-import-go").click()
    page.wait_for_url("**/workflows/*")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    wait_canvas_still(page)
    return int(page.url.rstrip("/").rsplit("/", 1)[-1])


def test_an_include_opens_read_only_with_a_breadcrumb_back(page, tmp_path):
    import_folder(page, tmp_path, "include-reuse.yaml")
    node = page.locator("[data-testid=canvas] [data-testid='node-deploy-staging']")
    # Its inner steps, collapsed into one line under its title.
    summary = node.get_by_test_id("include-summary")
    summary.wait_for()
    assert summary.inner_text() == "2 steps: run-deploy, verify-deploy"

    node.get_by_test_id("open-include-node").click()
    view = page.get_by_test_id("include-view")
    view.wait_for()
    view.locator("[data-testid='node-verify-deploy']").wait_for()
    assert view.locator("[data-testid='node-run-deploy']").count() == 1
    assert view.locator("[data-testid='node-build']").count() == 0
    crumbs = view.get_by_test_id("include-breadcrumb")
    assert " ".join(crumbs.inner_text().split()).startswith("main workflow › deploy-staging (workflows/deploy.yaml)")  # noqa: RUF001  the breadcrumbs' separator

    view.get_by_test_id("include-crumb-main").click()
    view.wait_for(state="detached")
    assert page.locator("[data-testid=canvas] [data-testid='node-build']").is_visible()

    # From the inspector, by keyboard: the panel's Open button.
    node.click()
    button = page.get_by_test_id("inspector").get_by_test_id("open-include-panel")
    button.focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("include-view").locator("[data-testid='node-run-deploy']").wait_for()
    page.get_by_test_id("include-crumb-main").press("Enter")
    page.get_by_test_id("include-view").wait_for(state="detached")


def import_nested_includes(page, tmp_path) -> None:
    """include-reuse, whose included deploy workflow includes one more (smoke)."""
    workflow_id = import_folder(page, tmp_path, "include-reuse.yaml")
    deploy = (EXAMPLES / "workflows/deploy.yaml").read_text()
    nested = deploy + "  - id: smoke\n    include: checks/smoke.yaml\n    dependsOn:\n      - verify-deploy\n"
    smoke = "name: smoke\nsteps:\n  - id: ping\n    instructions: Ping the service.\n"
    # Paths in an included file are relative to that file: workflows/checks/smoke.yaml.
    api(page, "PUT", f"/workflows/{workflow_id}/file", {"path": "workflows/checks/smoke.yaml", "text": smoke})
    api(page, "PUT", f"/workflows/{workflow_id}/file", {"path": "workflows/deploy.yaml", "text": nested})
    page.reload()
    page.wait_for_selector("[data-testid=editor][data-ready='1']")


def test_an_include_inside_an_include_opens_further(page, tmp_path):
    import_nested_includes(page, tmp_path)
    page.locator("[data-testid=canvas] [data-testid='node-deploy-staging']").get_by_test_id("open-include-node").click()
    view = page.get_by_test_id("include-view")
    inner = view.locator("[data-testid='node-smoke']")
    assert inner.get_by_test_id("include-summary").inner_text() == "1 step: ping"
    inner.get_by_test_id("open-include-node").click()
    view.locator("[data-testid='node-ping']").wait_for()
    crumbs = " ".join(view.get_by_test_id("include-breadcrumb").inner_text().split())
    assert crumbs.startswith("main workflow › deploy-staging (workflows/deploy.yaml) › smoke (workflows/checks/smoke.yaml)")  # noqa: RUF001  the breadcrumbs' separator

    # One level back: the deploy workflow again.
    view.get_by_role("button", name="deploy-staging (workflows/deploy.yaml)").click()
    view.locator("[data-testid='node-run-deploy']").wait_for()
    assert view.locator("[data-testid='node-ping']").count() == 0


def test_escape_closes_an_open_include_a_level_at_a_time_and_editing_keys_leave_the_workflow_under_it(page, tmp_path):
    import_nested_includes(page, tmp_path)
    main = page.get_by_test_id("canvas")
    node = main.locator("[data-testid='node-deploy-staging']")
    node.click()  # selected on the main canvas, then covered by the include
    # The inspector opening narrows the canvas and moves the node: its Open button is clicked where it ends up.
    page.get_by_test_id("inspector").get_by_text("Include step").wait_for()
    node.get_by_test_id("open-include-node").click()
    view = page.get_by_test_id("include-view")
    view.locator("[data-testid='node-smoke']").get_by_test_id("open-include-node").click()
    view.locator("[data-testid='node-ping']").wait_for()

    for keys in ("Delete", "Control+a", "Backspace", "Control+x", "Control+d", "Control+z"):
        page.keyboard.press(keys)
    page.keyboard.press("Escape")  # back to the deploy workflow
    view.locator("[data-testid='node-run-deploy']").wait_for()
    assert view.locator("[data-testid='node-ping']").count() == 0
    page.keyboard.press("Escape")  # back to the main workflow
    view.wait_for(state="detached")

    for step in ("build", "deploy-staging"):
        assert main.locator(f"[data-testid='node-{step}']").is_visible()
    assert page.get_by_test_id("dirty").count() == 0


def test_an_at_file_field_opens_its_file_and_offers_to_create_a_missing_one(page, tmp_path):
    workflow_id = import_folder(page, tmp_path, "full-featured.yaml")
    page.locator("[data-testid=canvas] [data-testid='node-plan']").click()
    inspector = page.get_by_test_id("inspector")
    inspector.get_by_test_id("at-file-open").click()
    assert page.get_by_role("tab", name="Files").get_attribute("aria-selected") == "true"
    editor = page.get_by_test_id("folder-panel").get_by_test_id("folder-file-editor")
    editor.wait_for()
    expected = (EXAMPLES / "instructions/plan-feature.md").read_text().strip()
    assert editor.inner_text().strip() == expected

    # An agent's prompt file, from the Agents tab.
    page.get_by_role("tab", name="Agents").click()
    page.get_by_text("planner", exact=True).first.click()
    inspector.get_by_test_id("at-file-open").click()
    editor.wait_for()
    assert editor.inner_text().strip() == (EXAMPLES / "prompts/planner.md").read_text().strip()

    # A reference to a file the folder lacks: said so, and created on request.
    page.locator("[data-testid=canvas] [data-testid='node-plan']").click()
    field = inspector.locator("#f-instructions")
    field.fill("@prompts/new-plan.md")
    missing = inspector.get_by_test_id("at-file")
    missing.get_by_text("prompts/new-plan.md is not in the workflow's folder.").wait_for()
    missing.get_by_test_id("at-file-create").click()
    page.get_by_test_id("folder-panel").locator("[data-testid=tree-file][data-path='prompts/new-plan.md']").wait_for()
    paths = [f["path"] for f in api(page, "GET", f"/workflows/{workflow_id}/files")]
    assert "prompts/new-plan.md" in paths


def test_context_files_are_listed_on_their_step_by_kind(page, tmp_path):
    import_folder(page, tmp_path, "context-files.yaml")
    page.locator("[data-testid=canvas] [data-testid='node-analyze-mixed']").click()
    listed = page.get_by_test_id("inspector").get_by_test_id("context-file")
    listed.first.wait_for()
    kinds = {item.locator("button").inner_text(): item.get_attribute("data-kind") for item in listed.all()}
    assert kinds == {"fixtures/context.txt": "text", "fixtures/sample.png": "image", "fixtures/sample.pdf": "PDF"}
    assert "B" in listed.nth(1).inner_text()  # its size

    listed.nth(2).locator("button").click()
    binary = page.get_by_test_id("folder-panel").get_by_test_id("folder-binary")
    binary.wait_for()
    assert "PDF document" in binary.inner_text()


def test_renaming_the_included_file_revalidates_the_main_workflow(page, tmp_path):
    import_folder(page, tmp_path, "include-reuse.yaml")
    assert page.get_by_test_id("error-count").inner_text().strip().startswith("0")
    blank_canvas(page)
    page.get_by_role("tab", name="Files").click()
    panel = page.get_by_test_id("folder-panel")

    def rename(path: str, to: str) -> None:
        panel.locator(f"[data-testid=tree-file][data-path='{path}']").click()
        panel.get_by_role("button", name="Rename…").click()
        panel.get_by_test_id("folder-path").fill(to)
        panel.get_by_role("button", name="Rename", exact=True).click()
        panel.locator(f"[data-testid=tree-file][data-path='{to}']").wait_for()

    rename("workflows/deploy.yaml", "workflows/deploy-old.yaml")
    problems = page.get_by_test_id("problem-list")
    problems.get_by_text("workflows/deploy.yaml").first.wait_for()
    wait_checked(page)
    assert not page.get_by_test_id("error-count").inner_text().strip().startswith("0")

    rename("workflows/deploy-old.yaml", "workflows/deploy.yaml")
    page.wait_for_function("() => document.querySelector('[data-testid=error-count]')?.textContent.trim().startsWith('0')")

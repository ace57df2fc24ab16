"""Workflows as folders in Chromium: import upstream's examples folder as a zip (asked for the main workflow),
see what each include step runs, edit a prompt file in the Files tab (a new version), and download the folder."""
from __future__ import annotations

import io
import zipfile

from .conftest import SPEC, api, wait_checked
from .test_editor_basics import blank_canvas

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
    data = open(download.value.path(), "rb").read()
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = set(zf.namelist())
        assert zf.read("prompts/coder.md").decode().endswith("Be brief.")
        assert zf.read("workflows/deploy.yaml") == (EXAMPLES / "workflows/deploy.yaml").read_bytes()
        assert zf.read("include-reuse.yaml") == (EXAMPLES / "include-reuse.yaml").read_bytes()
    assert {"fixtures/sample.png", "instructions/plan-feature.md"} <= names


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

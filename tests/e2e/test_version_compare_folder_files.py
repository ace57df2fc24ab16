"""Two versions that differ only in a folder file are not "the same workflow".

A prompt (`prompts/planner.md`) edited in the editor's Files tab makes a version whose main document is
unchanged; the compare page lists the file as changed and shows its old and new lines. Restoring the
earlier version puts the old prompt back, and the comparison of that restore says so too.
"""
from __future__ import annotations

from tests.support.browser import api, wait_checked
from tests.support.editor_page import blank_canvas

SOURCE = """name: planned
steps:
  - id: plan
    instructions: "@prompts/planner.md"
"""
PROMPT = "Plan the work in three steps.\nName each step."


def folder_workflow(page) -> int:
    page.goto("/")
    wf = api(page, "POST", "/workflows", {"source": SOURCE})
    saved = api(page, "PUT", f"/workflows/{wf['id']}/file", {"path": "prompts/planner.md", "text": PROMPT})
    assert saved["version"] == 2
    return wf["id"]


def edit_prompt_in_the_files_tab(page, workflow_id: int) -> None:
    page.goto(f"/workflows/{workflow_id}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    blank_canvas(page)
    page.get_by_role("tab", name="Files").click()
    panel = page.get_by_test_id("folder-panel")
    panel.locator("[data-testid=tree-file][data-path='prompts/planner.md']").click()
    editor = panel.get_by_test_id("folder-file-editor")
    editor.wait_for()
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type(" Keep it short.")
    panel.get_by_test_id("folder-save-file").click()
    panel.get_by_test_id("folder-notice").get_by_text("Version 3 saved.").wait_for()


def file_diff_lines(page, kind: str) -> list[str]:
    rows = page.get_by_test_id("file-changes").locator(f"[data-testid=file-diff] tr[data-kind={kind}] td.ydiff-code")
    return [t.strip() for t in rows.all_inner_texts()]


def test_a_version_that_changed_only_a_prompt_file_lists_it_with_its_diff(page):
    wid = folder_workflow(page)
    edit_prompt_in_the_files_tab(page, wid)
    assert api(page, "GET", f"/workflows/{wid}/versions/3")["source"] == SOURCE  # the main document is as it was

    page.goto(f"/workflows/{wid}/compare")
    page.get_by_test_id("compare-page").wait_for()
    assert page.get_by_test_id("compare-a").input_value() == "2"
    assert page.get_by_test_id("compare-b").input_value() == "3"
    summary = page.get_by_test_id("compare-summary")
    summary.get_by_text("1 folder file differs").wait_for()
    assert "same workflow" not in summary.inner_text()

    changes = page.get_by_test_id("change-list")
    assert changes.locator("[data-file='prompts/planner.md']").inner_text() == "file prompts/planner.md changed"
    block = page.get_by_test_id("file-changes").locator("[data-testid=file-change]")
    assert block.count() == 1
    assert block.get_attribute("data-path") == "prompts/planner.md" and block.get_attribute("data-change") == "changed"
    assert file_diff_lines(page, "del") == ["Name each step."]
    assert file_diff_lines(page, "add") == ["Name each step. Keep it short."]
    assert "No change in the YAML" in page.get_by_test_id("yaml-diff").inner_text()

    # Restore version 2: version 4 holds the old prompt again, and the page shows 3 -> 4 changing it back.
    page.get_by_test_id("restore-2").click()
    page.get_by_test_id("restore-confirm").get_by_role("button", name="Restore as version 4").click()
    page.get_by_text("Restored version 2 as version 4.").wait_for()
    page.wait_for_function("() => new URLSearchParams(location.search).get('b') === '4'")
    summary.get_by_text("1 folder file differs").wait_for()
    restored = api(page, "GET", f"/workflows/{wid}/file?path=prompts/planner.md&version=4")
    assert restored["text"] == PROMPT
    page.get_by_test_id("file-changes").locator("[data-testid=file-diff] tr[data-kind=add] td.ydiff-code").first.wait_for()
    assert file_diff_lines(page, "add") == ["Name each step."]
    assert file_diff_lines(page, "del") == ["Name each step. Keep it short."]


def test_two_versions_with_the_same_document_and_files_say_so(page):
    wid = folder_workflow(page)
    api(page, "POST", f"/workflows/{wid}/versions/2/restore")  # version 3: the same document and files as 2
    page.goto(f"/workflows/{wid}/compare?a=2&b=3")
    page.get_by_test_id("compare-page").wait_for()
    page.get_by_test_id("compare-summary").get_by_text("The two versions hold the same workflow and the same files.").wait_for()
    assert page.get_by_test_id("file-changes").count() == 0

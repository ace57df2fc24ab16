"""Run is off while the workflow has errors (like Export), with a title that
says why; nothing is saved for a run that cannot start."""
from __future__ import annotations

from tests.support.browser import open_new_editor, wait_checked
from tests.support.editor_page import COMMENTED_CHAIN, type_yaml


def workflow_count(page) -> int:
    """How many workflows the user has in all (the list itself is one page)."""
    res = page.request.get("/api/v1/workflows?limit=1")
    assert res.ok, res.status
    return int(res.headers["x-total-count"])


def test_run_is_disabled_while_the_workflow_has_errors_and_nothing_is_saved(page):
    open_new_editor(page)
    before = workflow_count(page)
    type_yaml(page, COMMENTED_CHAIN.replace("dependsOn: [draft]", "dependsOn: [drafts]"))
    wait_checked(page)
    page.get_by_test_id("problem").first.wait_for()
    run = page.get_by_test_id("run")
    assert run.is_disabled()
    assert "Fix" in (run.get_attribute("title") or "")
    assert page.get_by_test_id("export").is_disabled()
    assert workflow_count(page) == before

    type_yaml(page, COMMENTED_CHAIN)
    wait_checked(page)
    page.wait_for_selector("[data-testid=run]:not([disabled])")
    assert run.get_attribute("title") == "Run this workflow"

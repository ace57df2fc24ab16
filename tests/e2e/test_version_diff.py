"""Comparing two versions of a workflow, and restoring the earlier one.

Version 2 changes the instructions of `review` and adds `ship`; the compare page marks `review`
changed (saying which field), `ship` added and `plan` unchanged, and its YAML diff shows the old
and the new instructions as a removed and an added line. Restoring version 1 makes version 3.
"""
from __future__ import annotations

from tests.support.browser import api

V1 = """name: compare-me
steps:
  - id: plan
    instructions: Plan the work.
  - id: review
    instructions: Review the plan once.
    dependsOn: [plan]
"""
V2 = V1.replace("Review the plan once.", "Review the plan twice.") + """  - id: ship
    instructions: Ship it.
    dependsOn: [review]
"""


def two_versions(page) -> int:
    page.goto("/")
    wf = api(page, "POST", "/workflows", {"source": V1})
    saved = api(page, "PUT", f"/workflows/{wf['id']}", {"source": V2})
    assert saved["version"] == 2
    return wf["id"]


def node(page, key: str):
    """The frame of a step's node on the compare canvas (its data-diff says what happened)."""
    return page.locator(f"[data-testid=compare-canvas] .diff-node[data-key='{key}']")


def test_the_compare_page_marks_the_changed_and_the_added_step_and_shows_the_changed_line(page):
    wid = two_versions(page)
    page.goto(f"/workflows/{wid}/compare")
    page.get_by_test_id("compare-page").wait_for()
    # Default: the version before the latest against the latest.
    assert page.get_by_test_id("compare-a").input_value() == "1"
    assert page.get_by_test_id("compare-b").input_value() == "2"

    node(page, "review").wait_for()
    assert node(page, "review").get_attribute("data-diff") == "changed"
    assert "changed" in node(page, "review").get_by_test_id("diff-badge").inner_text()
    assert node(page, "review").get_attribute("title") == "Changed: instructions changed"
    assert node(page, "ship").get_attribute("data-diff") == "added"
    assert "added" in node(page, "ship").get_by_test_id("diff-badge").inner_text()
    assert node(page, "plan").get_attribute("data-diff") == "unchanged"

    changes = page.get_by_test_id("change-list")
    assert changes.locator("[data-key=review]").get_attribute("data-kind") == "changed"
    assert changes.locator("[data-key=review] .vc-change-text").inner_text() == "step review: instructions changed"
    assert changes.locator("[data-key=ship] .vc-change-text").inner_text() == "step ship added"
    assert changes.locator("[data-key=plan]").count() == 0
    # Picking a change selects its node.
    changes.locator("[data-key=review]").click()
    page.locator("[data-testid=compare-canvas] .react-flow__node.selected .diff-node[data-key=review]").wait_for()

    diff = page.get_by_test_id("yaml-diff")
    removed = diff.locator("tr[data-kind=del]")
    added = diff.locator("tr[data-kind=add]")
    assert "Review the plan once." in removed.first.inner_text()
    assert "−" in removed.first.inner_text()  # noqa: RUF001  the minus sign the diff shows
    assert "Review the plan twice." in added.first.inner_text()
    assert "+" in added.first.inner_text()
    assert added.count() == 1 + 3 and removed.count() == 1


def test_restoring_version_1_makes_version_3_with_its_document(page):
    wid = two_versions(page)
    first = api(page, "GET", f"/workflows/{wid}/versions/1")
    page.goto(f"/workflows/{wid}/compare?a=1&b=2")
    page.get_by_test_id("compare-page").wait_for()
    node(page, "ship").wait_for()

    page.get_by_test_id("restore-1").click()
    dialog = page.get_by_test_id("restore-confirm")
    assert "saved again as version 3" in dialog.inner_text()
    dialog.get_by_role("button", name="Restore as version 3").click()
    page.get_by_text("Restored version 1 as version 3.").wait_for()

    versions = api(page, "GET", f"/workflows/{wid}/versions")
    assert [v["version"] for v in versions] == [3, 2, 1]
    third = api(page, "GET", f"/workflows/{wid}/versions/3")
    assert third["document"] == first["document"] and third["source"] == V1
    # The page now shows what the restore changed: version 2 against version 3, where `ship` is gone.
    page.wait_for_function("() => new URLSearchParams(location.search).get('b') === '3'")
    assert page.get_by_test_id("compare-b").input_value() == "3"
    node(page, "ship").wait_for()
    assert node(page, "ship").get_attribute("data-diff") == "removed"
    assert node(page, "review").get_attribute("data-diff") == "changed"

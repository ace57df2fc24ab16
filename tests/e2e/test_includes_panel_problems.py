"""The Includes panel shows, under each include, what the server finds wrong with it (and only that),
and a fixed include loses its problem."""
from __future__ import annotations

from tests.support.browser import api, wait_checked

WORKFLOW = """\
name: with-includes
includes:
  deploy: 42
  report: [a, b]
  review: workflows/review.yaml
steps:
  - id: ship
    include: review
"""


def problems_of(page, name: str) -> list[str]:
    return page.locator(f"[data-field='includes.{name}'] .field-problem").all_inner_texts()


def open_includes(page) -> None:
    wf = api(page, "POST", "/workflows", {"source": WORKFLOW})
    page.goto(f"/workflows/{wf['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    wait_checked(page)
    page.get_by_role("tab", name="Includes").click()
    page.locator("[data-field='includes.review']").wait_for()


def test_each_include_shows_its_own_problems(page):
    open_includes(page)
    deploy = problems_of(page, "deploy")
    report = problems_of(page, "report")
    assert len(deploy) == 1 and "includes.deploy must be a string" in deploy[0], deploy
    assert len(report) == 1 and "includes.report must be a string" in report[0], report
    assert problems_of(page, "review") == []
    # An error is announced, like the problems under any other field.
    assert page.locator("[data-field='includes.deploy'] .field-problem.error[role=alert]").count() == 1


def test_fixing_an_include_clears_its_problem_and_no_other(page):
    open_includes(page)
    field = page.locator("#f-include-deploy")
    field.fill("workflows/deploy.yaml")
    page.wait_for_function("() => !document.querySelector(\"[data-field='includes.deploy'] .field-problem\")")
    wait_checked(page)
    assert problems_of(page, "deploy") == []
    assert len(problems_of(page, "report")) == 1

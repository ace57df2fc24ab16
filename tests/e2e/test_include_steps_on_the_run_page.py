"""An include step's inner steps on the run page: its result's ``innerSteps`` as a table, by namespaced id.

The view of upstream's internal/exec/include_test.go ``TestExecutor_Include_NamespacedInnerStepIDs`` (the engine
and HTTP halves are tests/runtime/test_include_results_and_dependencies.py and its _over_http twin).
"""
from __future__ import annotations

import json

from tests.support.browser import csrf
from tests.support.ported_workflows import INCLUDE_BUILD, INCLUDE_MAIN, INCLUDE_REPLIES
from tests.support.zips import zipped


def upload_folder(page) -> int:
    res = page.request.post("/api/v1/workflows/import-bundle", headers={"X-CSRFToken": csrf(page), "Referer": page.url or "/"},
                            multipart={"file": {"name": "bundle.zip", "mimeType": "application/zip",
                                                "buffer": zipped({"main.yaml": INCLUDE_MAIN.encode(), "build.yaml": INCLUDE_BUILD.encode()})},
                                       "main": "main.yaml"})
    assert res.ok, res.text()[:500]
    return res.json()["workflows"][0]["id"]


def test_an_include_step_shows_its_inner_steps_by_namespaced_id(page):
    page.goto("/")
    workflow = upload_folder(page)
    res = page.request.post("/api/v1/runs", headers={"X-CSRFToken": csrf(page), "Content-Type": "application/json", "Referer": page.url},
                            data=json.dumps({"workflow_id": workflow, "provider": "simulated", "script": INCLUDE_REPLIES}))
    assert res.status == 201, res.text()[:500]
    page.goto(f"/runs/{res.json()['id']}")
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)

    page.locator("[data-testid='node-do_build'] .node-title").first.click()
    table = page.get_by_test_id("include-steps-do_build")
    table.wait_for(timeout=20_000)
    rows = [r.split("\t") for r in table.get_by_test_id("include-step-row").all_inner_texts()]
    assert [(cells[0].strip(), cells[1].strip(), cells[2].strip()) for cells in rows] == [
        ("do_build.compile", "completed", "compiled"),
        ("do_build.test_step", "completed", "tests passed"),
    ], rows
    assert "steps.do_build.result.innerSteps" in table.inner_text()

"""The simulated script in the dialogs: the run dialog links the script format (docs/simulated-scripts.md, served)
and warns of a key that names nothing (a typo, with the close key and the workflow's keys) as it is typed; the
fork dialog shows the parent's script, and a new one typed there is the fork's (its typo warned too)."""
from __future__ import annotations

import json

from tests.support.browser import api
from tests.support.documents import JUDGE_DONE, JUDGE_NOT_YET, RIVERS_SCRIPT, rivers_loop
from tests.support.editor_page import type_script
from tests.support.run_pages import wait_run_finished

WORKFLOW = rivers_loop("scripted")


def warnings_of(page, testid: str):
    return page.get_by_test_id(f"{testid}-warnings")


def test_the_run_dialog_links_the_format_and_warns_of_a_key_naming_nothing(page):
    page.goto("/")
    workflow = api(page, "POST", "/workflows", {"source": WORKFLOW})
    page.goto(f"/workflows/{workflow['id']}")
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    page.get_by_test_id("run").click()
    dialog = page.get_by_test_id("run-dialog")
    dialog.wait_for()

    help_link = dialog.get_by_test_id("run-script-help")
    assert help_link.get_attribute("href") == "/help/simulated-scripts/" and help_link.get_attribute("target") == "_blank"
    served = page.request.get("/help/simulated-scripts/")
    assert served.ok and "# Simulated scripts" in served.text() and "A key that names nothing is warned" in served.text()

    type_script(page, "replies:\n  writr: [hello]\n  judge: [{content: ok, result: {done: true}}]\n")
    warned = warnings_of(page, "run-script")
    warned.wait_for()
    text = warned.inner_text()
    assert "script key `writr` names no step, agent or coordinator" in text and "did you mean `writer`?" in text
    assert "the workflow's keys: write, writer, judge, *, coordinator" in text
    assert warned.locator("li").count() == 1  # only the typo: `judge` is a key of the workflow

    type_script(page, json.dumps(RIVERS_SCRIPT))
    page.wait_for_function("() => !document.querySelector('[data-testid=run-script-warnings]')")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/runs") and r.request.method == "POST") as started:
        dialog.get_by_test_id("run-start").click()
    assert started.value.status == 201 and started.value.json()["script_warnings"] == []


def test_the_fork_dialog_takes_a_new_script_and_warns_of_its_typo(page):
    page.goto("/")
    workflow = api(page, "POST", "/workflows", {"source": WORKFLOW})
    parent = api(page, "POST", "/runs", {"workflow_id": workflow["id"], "provider": "simulated", "script": RIVERS_SCRIPT})
    assert wait_run_finished(page, parent["id"])["loops"]["write"]["rounds_completed"] == 4

    page.goto(f"/runs/{parent['id']}")
    strip = page.get_by_test_id("iterations-write")
    strip.wait_for()
    strip.get_by_test_id("iteration-cell").nth(1).click()
    page.get_by_test_id("fork-iteration-write.1").click()
    dialog = page.get_by_test_id("fork-dialog")
    dialog.wait_for()
    shown = dialog.get_by_test_id("fork-script").inner_text()
    assert "write.3.untilAgent" in shown and "too short" in shown  # the parent's script, as YAML

    # Round 2's judge is satisfied in the fork; a typo beside it is warned.
    new_script = {"replies": {**RIVERS_SCRIPT["replies"], "write.1.untilAgent": [JUDGE_DONE], "jugde": [JUDGE_NOT_YET]}}
    type_script(page, json.dumps(new_script), testid="fork-script")
    warned = warnings_of(page, "fork-script")
    warned.wait_for()
    assert "script key `jugde`" in warned.inner_text() and "did you mean `judge`?" in warned.inner_text()

    with page.expect_response(lambda r: r.url.endswith("/fork") and r.request.method == "POST") as forked:
        dialog.get_by_test_id("fork-start").click()
    assert forked.value.status == 201, forked.value.text()[:500]
    assert json.loads(forked.value.request.post_data_json["script"]) == new_script
    fork = forked.value.json()
    assert "`jugde`" in fork["script_warnings"][0] and "script" in fork["fork_point"]["edited"]
    done = wait_run_finished(page, fork["id"])
    assert done["status"] == "completed" and done["loops"]["write"]["rounds_completed"] == 2

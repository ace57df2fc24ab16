"""Run policies in the run dialog: a stop rule set in the form is kept on the
run (not in the document) and stops the loop; a rule the server refuses shows
the server's message. The template comes from the gallery ("Open")."""
from __future__ import annotations

import re

from tests.support.browser import api
from tests.support.editor_page import open_writer_critic


def open_policies(page):
    page.get_by_test_id("run").click()
    dialog = page.get_by_role("dialog", name="Start a run")
    dialog.wait_for()
    dialog.locator("summary", has_text="Run policies").click()
    form = dialog.get_by_test_id("run-policies")
    form.wait_for()
    assert "Run policies (kept on this run, not part of the exported file)" in form.inner_text()
    return dialog, form


def test_a_stop_rule_from_the_form_is_kept_on_the_run_and_stops_the_loop(page):
    wf_id = open_writer_critic(page)
    dialog, form = open_policies(page)
    # The template's own script (the critic first answers "Too thin.", then passes the draft).
    script = api(page, "GET", "/templates/writer-critic")["script_yaml"]
    dialog.get_by_test_id("run-script").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(script)
    form.get_by_role("button", name="+ Output contains").click()
    form.get_by_label("Stop rule 1 marker").fill("Too thin")
    form.get_by_role("checkbox", name="refine").check()

    with page.expect_response(lambda r: r.url.endswith("/api/v1/runs") and r.request.method == "POST") as started:
        dialog.get_by_test_id("run-start").click()
    assert started.value.status == 201, started.value.text()[:500]
    sent = started.value.request.post_data_json["policies"]
    assert sent == {"stop_rules": [{"kind": "output_contains", "marker": "Too thin"}], "combine": "any",
                    "on_iteration_error": "abort", "loops": ["refine"]}
    run_id = started.value.json()["id"]

    page.wait_for_url(re.compile(rf"/runs/{re.escape(str(run_id))}$"))
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)
    run = api(page, "GET", f"/runs/{run_id}")
    assert run["policies"] == sent
    # The critic's first reply ("Too thin.") has the marker: the rule stops the loop after round 1.
    assert run["loops"]["refine"]["break_reason"] == "policy", run["loops"]
    assert run["loops"]["refine"]["rounds_completed"] == 1, run["loops"]

    # Not part of the file.
    res = page.request.get(f"/api/v1/workflows/{wf_id}/export?format=yaml")
    assert res.ok and "Too thin" not in res.text() and "stop_rules" not in res.text()


def test_a_rule_the_server_refuses_shows_its_message(page):
    open_writer_critic(page)
    dialog, form = open_policies(page)
    form.get_by_role("button", name="+ Output contains").click()  # no marker typed
    with page.expect_response(lambda r: r.url.endswith("/api/v1/runs") and r.request.method == "POST") as started:
        dialog.get_by_test_id("run-start").click()
    assert started.value.status == 400, started.value.text()[:500]
    alert = dialog.get_by_role("alert")
    alert.wait_for()
    assert "marker" in alert.inner_text() and "policies" in alert.inner_text(), alert.inner_text()
    assert re.search(r"/workflows/\d+$", page.url)

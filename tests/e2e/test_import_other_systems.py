"""Other systems' loops in the browser: a Runsight workflow goes in through the
"Import from Runsight or Coqui" dialog (field-by-field report, then "Open in
editor") and comes back out of the export as the document the import answered;
a gallery template opens and runs to completion with the simulated provider.

Needs the wiring on the workflows list: the "Import from Runsight or Coqui"
button (OtherSystemImportDialog) and the gallery (TemplateGallery, heading
"Start from a template").
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from tests.support.browser import api

SEEDS = Path(__file__).resolve().parents[1] / "fixtures" / "seeds"
RUNSIGHT_LOOP = SEEDS / "runsight" / "basic_loop.yaml"


def open_import_dialog(page):
    page.goto("/")
    # The workflows list button ("Import from Runsight or Coqui", or a shorter "From Runsight or Coqui…").
    page.get_by_role("button", name=re.compile(r"Runsight or Coqui")).click()
    dialog = page.get_by_role("dialog", name="Import from Runsight or Coqui")
    dialog.wait_for()
    return dialog


def test_a_runsight_loop_imports_with_a_report_and_exports_the_same_document(page):
    source = RUNSIGHT_LOOP.read_text()
    dialog = open_import_dialog(page)
    dialog.get_by_label("Runsight workflow (YAML)").check()
    dialog.get_by_label("Source text").fill(source)

    with page.expect_response(lambda r: r.url.endswith("/api/v1/import") and r.request.method == "POST") as info:
        dialog.get_by_role("button", name="Translate", exact=True).click()
    assert info.value.status == 200, info.value.text()[:500]
    answer = info.value.json()
    assert answer["kind"] == "runsight"
    assert answer["valid"] is True, answer["errors"]
    assert answer["report"], "the import answered no report"

    # The field-by-field report: one row per entry, the counts per outcome, the notes.
    report = dialog.get_by_role("table", name="Import report")
    report.wait_for()
    assert report.get_by_test_id("report-row").count() == len(answer["report"])
    for entry in answer["report"]:
        assert entry["field"] in report.inner_text()
    for outcome in ("carried", "approximated", "dropped"):
        shown = dialog.get_by_test_id(f"count-{outcome}").inner_text()
        assert shown == f"{answer['counts'].get(outcome, 0)} {outcome}", shown
    # Groups come in the order dropped, approximated, carried; only outcomes that occur.
    groups = report.locator("tbody").evaluate_all("els => els.map(e => e.dataset.outcome)")
    assert groups == [o for o in ("dropped", "approximated", "carried") if answer["counts"].get(o)]
    for note in answer["notes"]:
        assert note in dialog.get_by_label("Import notes").inner_text()
    assert dialog.get_by_test_id("other-import-validity").inner_text().startswith("valid")

    # Open in editor: saved as a new workflow, the editor shows it.
    with page.expect_response(lambda r: r.url.endswith("/api/v1/workflows") and r.request.method == "POST") as saved:
        dialog.get_by_role("button", name="Open in editor").click()
    assert saved.value.status == 201, saved.value.text()[:500]
    page.wait_for_url(re.compile(r"/workflows/\d+$"))
    page.wait_for_selector("[data-testid=editor][data-ready='1']")
    assert page.get_by_role("dialog", name="Import from Runsight or Coqui").count() == 0
    wf_id = int(re.search(r"/workflows/(\d+)$", page.url).group(1))
    assert wf_id == saved.value.json()["id"]
    page.wait_for_selector("[data-testid='node-refine']")

    # The exported file reloads to the document the import answered.
    res = page.request.get(f"/api/v1/workflows/{wf_id}/export?format=yaml")
    assert res.ok, f"export -> {res.status}: {res.text()[:500]}"
    assert yaml.safe_load(res.text()) == answer["document"]
    assert api(page, "GET", f"/workflows/{wf_id}")["document"] == answer["document"]


def test_a_missing_coqui_parameter_is_named_and_can_be_given(page):
    source = (SEEDS / "coqui" / "investigate.json").read_text()
    dialog = open_import_dialog(page)
    dialog.get_by_label("Coqui loop definition (JSON)").check()
    dialog.get_by_label("Source text").fill(source)
    dialog.get_by_role("button", name="Translate", exact=True).click()

    problem = dialog.get_by_test_id("other-import-error")
    problem.wait_for()
    assert "Missing parameter: subject" in problem.inner_text()
    assert dialog.get_by_test_id("other-import-error-field").inner_text() == "/parameters/0/name"

    problem.get_by_role("button", name="Give “subject” a value").click()
    assert dialog.get_by_label("Parameter 1 name").input_value() == "subject"
    dialog.get_by_label("Parameter 1 value").fill("the flaky login test")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/import")) as info:
        dialog.get_by_role("button", name="Translate", exact=True).click()
    assert info.value.status == 200, info.value.text()[:500]
    assert info.value.request.post_data_json["parameters"] == {"subject": "the flaky login test"}
    dialog.get_by_role("table", name="Import report").wait_for()
    assert dialog.get_by_test_id("other-import-error").count() == 0


def test_a_gallery_template_opens_and_runs_to_completion(page):
    page.goto("/")
    gallery = page.get_by_role("region", name="Start from a template")
    card = gallery.get_by_test_id("template-writer-critic")
    card.wait_for()
    # Earlier tests may have saved a writer-critic already: then the card offers the copy or another one.
    have = api(page, "GET", "/workflows?q=writer-critic&limit=200")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/runs") and r.request.method == "POST") as started:
        card.get_by_role("button", name="Open and run").click()
        if any(w["name"] == "writer-critic" for w in have):
            card.get_by_test_id("template-make-another").click()
    assert started.value.status == 201, started.value.text()[:500]
    body = started.value.request.post_data_json
    assert body["provider"] == "simulated" and body["script"], body
    run_id = started.value.json()["id"]

    page.wait_for_url(re.compile(rf"/runs/{re.escape(str(run_id))}$"))
    page.wait_for_selector("[data-testid=run-status]:text('completed')", timeout=60_000)
    run = api(page, "GET", f"/runs/{run_id}")
    assert run["status"] == "completed", run
    assert run["workflow_id"] == body["workflow_id"]


def test_a_coqui_file_dropped_on_the_dialog_is_read_and_imported(page):
    path = SEEDS / "coqui" / "harness.json"
    dialog = open_import_dialog(page)
    assert dialog.get_by_label("Runsight workflow (YAML)").is_checked()
    page.evaluate(
        """([name, text]) => {
            const dt = new DataTransfer();
            dt.items.add(new File([text], name, { type: 'application/json' }));
            const target = document.querySelector('[data-testid=other-import-dropzone]');
            target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
            target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        }""",
        [path.name, path.read_text()],
    )
    # A .json file is taken for a Coqui definition (the choice stays the user's).
    page.wait_for_function("() => document.querySelector('[data-testid=other-import-text]').value.length > 0")
    assert dialog.get_by_label("Source text").input_value() == path.read_text()
    assert dialog.get_by_label("Coqui loop definition (JSON)").is_checked()
    with page.expect_response(lambda r: r.url.endswith("/api/v1/import")) as info:
        dialog.get_by_role("button", name="Translate", exact=True).click()
    assert info.value.status == 200, info.value.text()[:500]
    assert info.value.request.post_data_json["kind"] == "coqui"
    dialog.get_by_role("table", name="Import report").wait_for()
    assert dialog.get_by_test_id("report-row").count() == len(info.value.json()["report"])

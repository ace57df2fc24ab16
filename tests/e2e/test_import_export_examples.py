"""Every upstream example goes in through the import dialog and comes back out
through the export menu as an equal document, with its comments kept."""
from __future__ import annotations

import json
import re

import pytest
import yaml

from tests.support.browser import open_new_editor, wait_checked
from tests.support.upstream_spec import SPEC

EXAMPLES = SPEC / "examples"
FILES = sorted([*EXAMPLES.glob("*.yaml"), *EXAMPLES.glob("*.json"), *(EXAMPLES / "workflows").glob("*.yaml")])


def load(path):
    text = path.read_text()
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def export(page, fmt: str = "yaml") -> str:
    page.get_by_test_id("export").click()
    with page.expect_download() as info:
        page.get_by_test_id(f"export-{fmt}").click()
    return open(info.value.path()).read()


def comments(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if re.match(r"^\s*#", line)]


def test_the_examples_are_there():
    assert len(FILES) >= 15, f"expected the upstream examples under {EXAMPLES}"


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(EXAMPLES)) for p in FILES])
def test_it_imports_by_paste_and_exports_an_equal_document(page, path):
    open_new_editor(page)
    page.get_by_test_id("import").click()
    page.get_by_test_id("import-text").fill(path.read_text())
    page.get_by_test_id("import-submit").click()
    page.wait_for_selector("[data-testid=import-text]", state="detached")
    wait_checked(page)
    assert page.get_by_test_id("validity").inner_text() == "valid"
    assert page.locator(".react-flow__node").count() > 0

    exported = export(page, "yaml")
    assert yaml.safe_load(exported) == load(path)
    if path.suffix == ".yaml":
        # Comments of the imported file survive the round trip.
        assert comments(exported) == comments(path.read_text())

    as_json = export(page, "json")
    assert json.loads(as_json) == load(path)


def test_it_imports_from_the_file_picker(page):
    path = EXAMPLES / "loop-repeat-until.yaml"
    open_new_editor(page)
    page.get_by_test_id("import").click()
    page.get_by_test_id("import-file").set_input_files(str(path))
    page.wait_for_selector("[data-testid=import-text]", state="detached")
    wait_checked(page)
    page.wait_for_selector("[data-testid='node-dev_cycle']")
    page.wait_for_selector("[data-testid='node-dev_cycle/review']")
    assert yaml.safe_load(export(page)) == load(path)


def test_it_imports_a_file_dropped_on_the_editor(page):
    path = EXAMPLES / "loop-foreach.yaml"
    open_new_editor(page)
    page.evaluate(
        """([name, text]) => {
            const dt = new DataTransfer();
            dt.items.add(new File([text], name, { type: 'application/yaml' }));
            const target = document.querySelector('[data-testid=editor]');
            target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
            target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        }""",
        [path.name, path.read_text()],
    )
    page.wait_for_selector("[data-testid='node-deploy_each']")
    wait_checked(page)
    assert yaml.safe_load(export(page)) == load(path)
    # Auto-layout placed every node: none sits on top of another at the origin.
    boxes = [page.locator(f"[data-testid='node-{k}']").bounding_box() for k in ("list_services", "deploy_each", "summary")]
    assert len({(round(b["x"]), round(b["y"])) for b in boxes}) == 3


def test_export_is_refused_while_the_document_has_errors(page):
    open_new_editor(page)
    page.get_by_test_id("import").click()
    page.get_by_test_id("import-text").fill("name: broken\nsteps:\n  - id: a\n    dependsOn: [nowhere]\n")
    page.get_by_test_id("import-submit").click()
    page.wait_for_selector("[data-testid=import-text]", state="detached")
    wait_checked(page)
    page.get_by_test_id("problem").first.wait_for()
    assert "1 error" in page.get_by_test_id("validity").inner_text()
    assert page.get_by_test_id("export").is_disabled()
